-- Take a token from a bucket (RedisLimiter.take). The refill is computed from Redis' own clock
-- (TIME), so the replicas' clocks don't matter.
-- KEYS[1] the bucket (hash: tokens, ts).  ARGV: per-second rate, burst.
-- A bucket first seen is full; it expires once it would be full again (+ 1 s).
-- Returns the wait in microseconds (0 = allowed: a token was spent).
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(b[1]) or burst
local ts = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return math.ceil(wait * 1000000)
