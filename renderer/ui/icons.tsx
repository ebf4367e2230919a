import type { SVGProps } from 'react';

/** A handful of 16px stroke icons; decorative (aria-hidden) since buttons carry the label. */
const Svg = (props: SVGProps<SVGSVGElement>) => (
  <svg
    width="16"
    height="16"
    viewBox="0 0 16 16"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.5"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    {...props}
  />
);

export const IconX = () => (
  <Svg>
    <path d="M4 4l8 8M12 4l-8 8" />
  </Svg>
);
export const IconPlus = () => (
  <Svg>
    <path d="M8 3v10M3 8h10" />
  </Svg>
);
export const IconCheck = () => (
  <Svg>
    <path d="M3 8.5l3 3 7-7" />
  </Svg>
);
export const IconSearch = () => (
  <Svg>
    <circle cx="7" cy="7" r="4.5" />
    <path d="M10.5 10.5L14 14" />
  </Svg>
);
export const IconInbox = () => (
  <Svg>
    <path d="M2 9l2-6h8l2 6v4H2z" />
    <path d="M2 9h3.5l1 2h3l1-2H14" />
  </Svg>
);
export const IconList = () => (
  <Svg>
    <path d="M5 4h9M5 8h9M5 12h9M2 4h.01M2 8h.01M2 12h.01" />
  </Svg>
);
export const IconBoard = () => (
  <Svg>
    <rect x="2" y="2.5" width="3.5" height="11" rx="1" />
    <rect x="6.25" y="2.5" width="3.5" height="7" rx="1" />
    <rect x="10.5" y="2.5" width="3.5" height="9" rx="1" />
  </Svg>
);
export const IconClock = () => (
  <Svg>
    <circle cx="8" cy="8" r="6" />
    <path d="M8 4.5V8l2.5 1.5" />
  </Svg>
);
export const IconSync = () => (
  <Svg>
    <path d="M13 6A5 5 0 0 0 3.5 5M3 10a5 5 0 0 0 9.5 1" />
    <path d="M13 2.5V6H9.5M3 13.5V10h3.5" />
  </Svg>
);
export const IconPlay = () => (
  <Svg>
    <path d="M5 3.5v9l7-4.5z" />
  </Svg>
);
export const IconPause = () => (
  <Svg>
    <path d="M5.5 3.5v9M10.5 3.5v9" />
  </Svg>
);
export const IconStop = () => (
  <Svg>
    <rect x="4" y="4" width="8" height="8" rx="1" />
  </Svg>
);
export const IconTrash = () => (
  <Svg>
    <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.5 9h6l.5-9" />
  </Svg>
);
export const IconSettings = () => (
  <Svg>
    <circle cx="8" cy="8" r="2" />
    <path d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4" />
  </Svg>
);
export const IconFolder = () => (
  <Svg>
    <path d="M2 4.5V12.5h12V6H8L6.5 4.5z" />
  </Svg>
);
export const IconChevron = ({ open }: { open?: boolean }) => (
  <Svg style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}>
    <path d="M6 4l4 4-4 4" />
  </Svg>
);
export const IconFilter = () => (
  <Svg>
    <path d="M2.5 3.5h11L9.5 8.5v4l-3 1.5v-5.5z" />
  </Svg>
);
export const IconPaperclip = () => (
  <Svg>
    <path d="M13 7.5l-5 5a3 3 0 0 1-4.5-4.5l5.5-5.5a2 2 0 0 1 3 3L6.5 11a1 1 0 0 1-1.5-1.5L10 4.5" />
  </Svg>
);
export const IconKeyboard = () => (
  <Svg>
    <rect x="1.5" y="4" width="13" height="8" rx="1.5" />
    <path d="M4 6.5h.01M6.5 6.5h.01M9 6.5h.01M11.5 6.5h.01M5 9.5h6" />
  </Svg>
);
export const IconColumns = () => (
  <Svg>
    <rect x="2.5" y="3" width="11" height="10" rx="1.5" />
    <path d="M6.2 3v10M9.8 3v10" />
  </Svg>
);
export const IconViews = () => (
  <Svg>
    <path d="M4 2.5h8v11l-4-3-4 3z" />
  </Svg>
);
