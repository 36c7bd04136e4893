/**
 * The signed-in user, shared by every screen. Loaded once from GET /users/current, reloaded after changes
 * (legal acceptance), cleared on logout and whenever the API answers 403.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { CurrentUser } from '../../../server/shared';
import { getCurrentUser, logOut, onSessionEnded, readToken, removeToken, storeToken } from '../api';

type Session = {
  /** undefined while not loaded yet, null when signed out. */
  user: CurrentUser | null | undefined;
  /** Fetches the user again and stores it. */
  reload: () => Promise<CurrentUser>;
  /** Keeps a new token and loads its user. */
  signIn: (token: string) => Promise<CurrentUser>;
  signOut: () => Promise<void>;
};

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<CurrentUser | null | undefined>(() => (readToken() ? undefined : null));

  useEffect(() => {
    onSessionEnded(() => {
      setUser(null);
      if (!window.location.hash.startsWith('#/login')) window.location.hash = '#/login';
    });
  }, []);

  const reload = useCallback(async () => {
    const fresh = await getCurrentUser();
    setUser(fresh);
    return fresh;
  }, []);

  const signIn = useCallback(
    async (token: string) => {
      storeToken(token);
      return reload();
    },
    [reload],
  );

  const signOut = useCallback(async () => {
    try {
      await logOut();
    } catch {
      // The local session ends either way; a token the server could not revoke expires on its own.
    }
    removeToken();
    setUser(null);
  }, []);

  const value = useMemo(() => ({ user, reload, signIn, signOut }), [user, reload, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside SessionProvider');
  return session;
}

/** The signed-in user, for screens rendered behind the sign-in guard. */
export function useUser(): CurrentUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser must be used behind the sign-in guard');
  return user;
}
