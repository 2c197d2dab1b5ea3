import { getToken, isDistributorToken, isLoggedIn } from '../../../lib/session';

export interface OneTapInput {
  readonly isLoggedIn: boolean;
  readonly hasToken: boolean;
  readonly distributorToken: boolean;
}

/**
 * Spec §4: on first load, the one-tap sign-in prompt is shown when the user is not flagged logged in and
 * has no token (or has one that is not a distributor "make token").
 */
export function shouldOfferOneTap({ isLoggedIn: loggedIn, hasToken, distributorToken }: OneTapInput): boolean {
  return !loggedIn && (!hasToken || !distributorToken);
}

/** `shouldOfferOneTap` for the current tab's session storage. */
export function oneTapWanted(): boolean {
  return shouldOfferOneTap({
    isLoggedIn: isLoggedIn(),
    hasToken: getToken() !== null,
    distributorToken: isDistributorToken(),
  });
}
