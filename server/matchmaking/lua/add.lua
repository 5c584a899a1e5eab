-- A new waiting ticket (RedisTickets.add).
-- KEYS: ticket, queue, engines, the user's waiting set, request key.
-- ARGV: ticket JSON, created, id, engine, max waiting, "1" when the request has an id ("0": none,
-- KEYS[5] unused).
-- Returns the ticket JSON (an earlier one for a known request id), or "" when the user has too
-- many waiting tickets.
-- P is matchmaking/store.py's _P (the `{mm}` hash tag: every key in one slot).
local P = 'tablero:{mm}:'
if ARGV[6] == '1' then
  local known = redis.call('GET', KEYS[5])
  if known then
    local t = redis.call('GET', P .. 't:' .. known)
    if t then return t end
  end
end
if redis.call('SCARD', KEYS[4]) >= tonumber(ARGV[5]) then return '' end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[4])
redis.call('SADD', KEYS[4], ARGV[3])
if ARGV[6] == '1' then redis.call('SET', KEYS[5], ARGV[3], 'EX', 86400) end
return ARGV[1]
