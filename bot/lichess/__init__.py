"""lichess: the account a member links (OAuth with PKCE) and the client that speaks to it."""
