/**
 * The tray icon, drawn at build time into tiny PNGs (a clock face): macOS gets a black template
 * image that the menu bar tints; other platforms a coloured one that reads on light and dark
 * task bars. 16 px and 32 px (for 2x displays).
 */
export const trayIconPng = {
  template: {
    x1: 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAATklEQVR42mNgwA/+QzFJ4D8BTJFmvIZgU4SNjdUQXBL4xP7TxABiYwFF/D8RCv/jCQ/KDSAnwRAdiISim3oGMBCR2shKjTTJD2TlTJwAAPhydYsNgf3RAAAAAElFTkSuQmCC',
    x2: 'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAgElEQVR42uWXUQrAMAhDvf+ls//BGNWnzTrBv0jSFm2M+HDoluOEb7mNGBUiKFvIq/gU+RMuW4+QoyJWCrI42QpYva4KVsRkw/H/FpDpVwHDql2AjhYQ5BNMGAy8C84XoEZy7D9AyS0ElN3MtCtqPcRWU2phyy0WE4vVzGY5bYkLdviBjVrdsi4AAAAASUVORK5CYII=',
  },
  color: {
    x1: 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAASUlEQVR42mNgwAN4p3T8B2EGUgBMEy5MkWa8hmBTCAMEDcFlEz4DUAwZWAPwBRY2gGEIxQaQEn0khwH9DCDHEOonZapkJnKyMwBDRaUYt3jZegAAAABJRU5ErkJggg==',
    x2: 'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAh0lEQVR42u3XSwqAMAwE0F7Ae3sA71tXQhfS5jeZFBro1nlI0Ulru8713H086YGrQwsOhXjDXYiocBNC+tBvQhHa8FCE5pVaAVMEFaC9VB7AL+IAqADLh0UyYgQKsELsDZAg4Pcg9Od0AHRAJiKtBcE7AayaUcNLlNIStbzEYlJiNSuznKLmBZH7NRen6HJfAAAAAElFTkSuQmCC',
  },
} as const;
