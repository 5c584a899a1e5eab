-- KEYS: the GameKeys.  ARGV: the version it must be at ("" = any). Deletes every key, the lobby entry too.
-- Returns 1 deleted | 0 unknown game | -2 at another version (nothing deleted).
if redis.call('EXISTS', KEYS[2]) == 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if ARGV[1] ~= '' then
  local v = head(KEYS[1])
  if v ~= tonumber(ARGV[1]) then return -2 end
end
redis.call('DEL', unpack(KEYS))
return 1
