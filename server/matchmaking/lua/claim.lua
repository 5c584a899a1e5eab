-- Tickets leave the queue for one match (RedisTickets.claim), only if every one still waits.
-- KEYS[1] the matches' set (names the slot; the other keys are built here, in the same slot).
-- ARGV: match JSON, match id, claim time, then the ticket ids. All still waiting -> each
-- MATCHING (with the match's id), out of its queue and its user's waiting set; the match record
-- written and the match in the set by claim time.
-- Returns 1 claimed, 0 a ticket is unknown or not waiting (nothing written).
-- P is matchmaking/store.py's _P (the `{mm}` hash tag: every key in one slot).
local P = 'tablero:{mm}:'
for i = 4, #ARGV do
  local raw = redis.call('GET', P .. 't:' .. ARGV[i])
  if not raw or cjson.decode(raw)['status'] ~= 'WAITING' then return 0 end
end
for i = 4, #ARGV do
  local key = P .. 't:' .. ARGV[i]
  local t = cjson.decode(redis.call('GET', key))
  t['status'] = 'MATCHING'
  t['match'] = ARGV[2]
  redis.call('SET', key, cjson.encode(t))
  redis.call('ZREM', P .. 'q:' .. t['engine'], ARGV[i])
  redis.call('SREM', P .. 'w:' .. t['user'], ARGV[i])
end
redis.call('SET', P .. 'm:' .. ARGV[2], ARGV[1])
redis.call('ZADD', P .. 'm', ARGV[3], ARGV[2])
return 1
