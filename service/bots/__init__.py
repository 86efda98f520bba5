"""Computer players: they act through the same path as people (see DESIGN.md).

``policies`` chooses moves (pure, runs in a worker process), ``knowledge`` holds what a bot
knows of each game beyond the contract, ``thinker`` runs the choice off the event loop,
``seats`` drives the bot seats of live matches, and ``client`` plays as an external client.
"""
