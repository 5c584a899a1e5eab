"""Quick match (issue 33): tickets, their store, and the matcher. See docs/matchmaking.md."""
