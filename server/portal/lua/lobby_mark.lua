-- Mark a lobby entry (RedisLobby.mark), atomically: a seat taken (by a user), the game's new
-- status, and/or the seats played by bots now. The entry keeps its TTL.
-- KEYS[1] the entry; ARGV: seat ("" = none), user JSON ("" = none), status ("" = unchanged),
-- seats played by bots now (",1,3," = seats 1 and 3; "" = none), seats that have made a move of
-- their own (the same form; marked "acted").
-- Returns 1 marked, 0 no such entry.
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local e = cjson.decode(raw)
for _, s in ipairs(e['seats']) do
  if ARGV[1] ~= '' and s['seat'] == tonumber(ARGV[1]) then
    s['taken'] = true
    if ARGV[2] ~= '' then s['user'] = cjson.decode(ARGV[2]) end
  end
  if ARGV[4] and ARGV[4] ~= '' and string.find(ARGV[4], ',' .. s['seat'] .. ',', 1, true) then
    s['kind'] = 'bot'
  end
  if ARGV[5] and ARGV[5] ~= '' and string.find(ARGV[5], ',' .. s['seat'] .. ',', 1, true) then
    s['acted'] = true
  end
end
if ARGV[3] ~= '' then e['status'] = ARGV[3] end
redis.call('SET', KEYS[1], cjson.encode(e), 'KEEPTTL')
return 1
