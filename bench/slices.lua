-- bench/slices.lua: what bench/paths.lua and bench/post.lua share. Each sends the lines of a list in turn, and
-- keeps its place in BENCH_STATE_FILE (optional) between the slices of one measurement, each a wrk run of its
-- own, so that they go on through the list instead of sending its first lines again. Loaded with dofile
-- from the script's own directory.
local slices = {}

-- Where the previous slice stopped (0 without a state file, or before the first slice).
function slices.start(state)
  if not state or #state == 0 then return 0 end
  local f = io.open(state, "r")
  if not f then return 0 end
  local start = tonumber(f:read("*l") or "0") or 0
  f:close()
  return start
end

-- The non-empty lines of `file`; `who` names the script in the errors.
function slices.lines(file, who)
  local lines = {}
  local f = assert(io.open(file, "r"), who .. ": cannot open " .. file)
  for line in f:lines() do
    if #line > 0 then lines[#lines + 1] = line end
  end
  f:close()
  assert(#lines > 0, who .. ": no lines in " .. file)
  return lines
end

-- The most any thread sent: each thread's global `sent`, read with thread:get (which sees only globals).
function slices.most_sent(threads)
  local most = 0
  for _, thread in ipairs(threads) do
    most = math.max(most, thread:get("sent") or 0)
  end
  return most
end

-- Where the next slice starts, written for it.
function slices.save(state, who, next_start)
  if not state or #state == 0 then return end
  local f = assert(io.open(state, "w"), who .. ": cannot write " .. state)
  f:write(tostring(next_start) .. "\n")
  f:close()
end

return slices
