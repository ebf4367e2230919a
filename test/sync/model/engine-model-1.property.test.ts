/** Slice 1 of the model test's run (issue 14's proof, property-slice.ts). */
import { describeModelSlice } from './property-slice';

describeModelSlice(1);
