/** 0003: space members keep the fields the replica does not model (invitedBy, the role's id). */
export const up = `
ALTER TABLE space_members ADD COLUMN extra TEXT;
`;
