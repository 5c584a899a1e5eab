-- KEYS: events, meta.  {-1} for an unknown game, else {version, hash}.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1, ''}
end
local v, h = head(KEYS[1])
return {v, h}
