import { z } from 'zod';
import { id, userRef } from './common';

export const tokenRequest = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1_000),
});

export const refreshRequest = z.object({ refreshToken: z.string().min(16).max(512) });

export const organization = z.looseObject({ orgId: id, orgName: z.string() });
export type Organization = z.infer<typeof organization>;

/** Lifetimes in seconds; a refresh rotates the refresh token. */
export const authTokens = z.looseObject({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  tokenType: z.string(),
  expiresIn: z.number().int().positive(),
  refreshExpiresIn: z.number().int().positive(),
  user: userRef,
  organizations: z.array(organization),
});
export type AuthTokens = z.infer<typeof authTokens>;
