-- A claimed match's tickets become MATCHED with its game and their seats (RedisTickets.assign);
-- the match record goes. A ticket not MATCHING for this match is left as it is.
-- KEYS[1] the matches' set (names the slot; the other keys are built here, in the same slot).
-- ARGV: match id (= the game id), now, keep-ended seconds, then ticket id and seat pairs.
-- Returns 1.
-- P is matchmaking/store.py's _P (the `{mm}` hash tag: every key in one slot).
local P = 'tablero:{mm}:'
for i = 4, #ARGV, 2 do
  local key = P .. 't:' .. ARGV[i]
  local raw = redis.call('GET', key)
  if raw then
    local t = cjson.decode(raw)
    if t['status'] == 'MATCHING' and t['match'] == ARGV[1] then
      t['status'] = 'MATCHED'
      t['gameId'] = ARGV[1]
      t['seat'] = tonumber(ARGV[i + 1])
      t['matchTime'] = tonumber(ARGV[2])
      t['version'] = t['version'] + 1
      redis.call('SET', key, cjson.encode(t), 'EX', ARGV[3])
    end
  end
end
redis.call('DEL', P .. 'm:' .. ARGV[1])
redis.call('ZREM', P .. 'm', ARGV[1])
return 1
