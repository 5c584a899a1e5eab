-- One read of a player's hash, recent list and name (RedisRatings.player; a script runs alone:
-- no commit between).
-- KEYS: the user's hash, its recent list, names.  ARGV: how many recent games, user.
-- Returns {the hash flat (engine, rating JSON, ...), the recent games newest first, the name ("" none)}.
return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1),
        redis.call('HGET', KEYS[3], ARGV[2]) or ''}
