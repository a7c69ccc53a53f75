/** `sslmode` values that pg 8 verifies as `verify-full` does, warning on stderr that pg 9 will not. */
const ALIASED_SSL_MODE = /([?&]sslmode=)(prefer|require|verify-ca)(?=[&#]|$)/g;
/** The opt-in to libpq's meanings of the modes, under which pg neither aliases them nor warns. */
const LIBPQ_COMPAT = /[?&]uselibpqcompat=true(?=[&#]|$)/;

/**
 * The connection string as `pg` gets it (pure): `sslmode=prefer`, `require` and `verify-ca` are
 * written `sslmode=verify-full`, which is what pg 8 makes of them (TLS, with the certificate and
 * host name verified), so that pg has no reason for its process warning ("SECURITY WARNING: The
 * SSL modes 'prefer', 'require', and 'verify-ca' are treated as aliases for 'verify-full'"), and
 * the meaning stays the strict one if a later pg changes the aliases. Nothing is weakened: a string
 * with `uselibpqcompat=true` (libpq's weaker meanings, chosen on purpose) and every other mode are
 * left as they are.
 */
export function pinnedSslMode(connectionString: string): string {
  if (LIBPQ_COMPAT.test(connectionString)) return connectionString;
  return connectionString.replace(ALIASED_SSL_MODE, "$1verify-full");
}
