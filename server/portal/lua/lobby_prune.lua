-- One step of the lobby index's cleanup inside Redis (RedisLobby.prune, on a plain server: the
-- game keys it names are not in KEYS, which only a cluster needs).
-- KEYS[1] the index; ARGV: ZSCAN cursor, count, and a game's meta and entry key split around
-- its id (ids.game_keys: the names are defined once): meta = ARGV[3] .. id .. ARGV[4],
-- entry = ARGV[3] .. id .. ARGV[5].
-- A member goes when its game (meta) or its entry is gone, or when it cannot be a game's id
-- (a brace); a gone game's entry still there is deleted.
-- Returns {next cursor, members removed}.
local step = redis.call('ZSCAN', KEYS[1], ARGV[1], 'COUNT', ARGV[2])
local members, gone = step[2], {}
for i = 1, #members, 2 do
  local id = members[i]
  local an_id = string.find(id, '[{}]') == nil  -- a brace would move the hash tag: no game's id
  local entry = ARGV[3] .. id .. ARGV[5]
  local game = an_id and redis.call('EXISTS', ARGV[3] .. id .. ARGV[4]) == 1
  if not (game and redis.call('EXISTS', entry) == 1) then
    gone[#gone + 1] = id
    if an_id and not game then redis.call('DEL', entry) end
  end
end
for i = 1, #gone, 500 do
  redis.call('ZREM', KEYS[1], unpack(gone, i, math.min(i + 499, #gone)))
end
return {step[1], #gone}
