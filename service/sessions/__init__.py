"""Sessions: identity, lobby, match runtimes (one writer each), reconnect, rematch, spectators."""
