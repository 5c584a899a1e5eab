-- KEYS: the GameKeys.  ARGV: TTL ms.  0 unknown game, 1 set (on every key, the lobby entry too).
if redis.call('EXISTS', KEYS[2]) == 0 then
  return 0
end
for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return 1
