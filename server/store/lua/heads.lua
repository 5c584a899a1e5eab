-- KEYS: the events streams of many games (one server, not a cluster).  {v1, h1, v2, h2, ...}.
local reply = {}
for i = 1, #KEYS do
  local v, h = head(KEYS[i])
  reply[#reply + 1] = v
  reply[#reply + 1] = h
end
return reply
