-- bench/detail.lua: wrk script requesting GET /v1/foods/{n} over SR28 food numbers in the shuffled order
-- that bench/run writes (one 5-digit number a line).
-- Environment: BENCH_FOODS_FILE (the number list), BENCH_API_KEY (sent as X-API-Key).
local file = os.getenv("BENCH_FOODS_FILE")
local key = os.getenv("BENCH_API_KEY")
assert(file and #file > 0, "detail.lua: set BENCH_FOODS_FILE")
assert(key and #key > 0, "detail.lua: set BENCH_API_KEY")

local foods = {}
local counter = 0
local threads = 0

function setup(thread)
  thread:set("thread_index", threads)
  threads = threads + 1
end

function init(args)
  local f = assert(io.open(file, "r"), "detail.lua: cannot open " .. file)
  for line in f:lines() do
    if #line > 0 then foods[#foods + 1] = "/v1/foods/" .. line end
  end
  f:close()
  assert(#foods > 0, "detail.lua: no food numbers in " .. file)
  counter = ((thread_index or 0) * 4391) % #foods
  wrk.headers["X-API-Key"] = key
end

function request()
  counter = counter % #foods + 1
  return wrk.format("GET", foods[counter])
end
