"""Ratings of portal users per engine (issue 33): see docs/ratings.md.

`model` turns a finished game into a rating update (openskill's Plackett-Luce), `store` keeps
ratings, leaderboards and the rated-games journal (Redis, or SQLite), `service` rates games
exactly once and serves leaderboards and profiles.
"""
