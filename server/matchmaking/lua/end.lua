-- The one place a waiting ticket ends (RedisTickets.cancel, .expire).
-- KEYS[1] the matches' set (names the slot; the ticket keys are built here, in the same slot).
-- ARGV[1] the new status (CANCELLED, EXPIRED), ARGV[2] now, ARGV[3] keep-ended seconds, then
-- (from ARGV[4] on) the ticket ids. A WAITING ticket ends when cancelled, or when expired with
-- its `expires` at most now; it leaves its queue and its user's waiting set.
-- Returns per ticket its JSON as it is now ("" for an unknown ticket).
-- P is matchmaking/store.py's _P (the `{mm}` hash tag: every key in one slot).
local P = 'tablero:{mm}:'
local out = {}
for i = 4, #ARGV do
  local key = P .. 't:' .. ARGV[i]
  local raw = redis.call('GET', key)
  if raw then
    local t = cjson.decode(raw)
    if t['status'] == 'WAITING' and (ARGV[1] == 'CANCELLED' or t['expires'] <= tonumber(ARGV[2])) then
      t['status'] = ARGV[1]
      t['version'] = t['version'] + 1
      t['endTime'] = tonumber(ARGV[2])
      raw = cjson.encode(t)
      redis.call('SET', key, raw, 'EX', ARGV[3])
      redis.call('ZREM', P .. 'q:' .. t['engine'], ARGV[i])
      redis.call('SREM', P .. 'w:' .. t['user'], ARGV[i])
    end
    out[#out + 1] = raw
  else
    out[#out + 1] = ''
  end
end
return out
