-- tests/fuzz/repl_lines.lua: the libFuzzer driver for REPL input. The bytes
-- are lines typed at the prompt; each is compiled as the REPL does (first
-- "return LINE;", else the line itself, continuation lines joined while the
-- chunk is incomplete) and run in a session environment holding the REPL's
-- commands (load, run, set, vars, info, save, plot, replot, help, results)
-- and lied. The environment is a sandbox: no os, io or package; file
-- arguments map to test models, save and plot write to a scratch directory,
-- string.rep is bounded, and a count hook ends a chunk after 10^7
-- instructions (the REPL's Ctrl-C). Lua errors are expected; a crash, a
-- sanitizer report, a leak or a hang is a bug.
local lied = require "lied"
local repl = require "lied.repl"
local src = os.getenv("LIED_SRC") or "."
local models = { src .. "/tests/models/osc.lua", src .. "/tests/models/signals.lua",
  src .. "/tests/models/chain.lua", src .. "/tests/models/errors/unconnected.lua",
  src .. "/tests/models/syntax_error.lua", src .. "/tests/models/long_names.lua" }
local scratch = os.tmpname()
os.remove(scratch)
io.stderr = io.open("/dev/null", "w") or io.stderr
local devnull = io.open("/dev/null", "w")
local real_stdout = io.stdout

local function file_of(x)
  if type(x) == "string" and (x:match("%.lua$") or x:find("/", 1, true)) then
    return models[#x % #models + 1]
  end
  return x
end
local function out_path(x)
  if type(x) ~= "string" then return x end
  local ext = x:match("%.(%w+)$") or "csv"
  return scratch .. "." .. ext
end

local safe_string = {}
for k, v in pairs(string) do safe_string[k] = v end
safe_string.rep = function(s, n, sep)
  if type(n) == "number" and type(s) == "string" and #s * n > 1e5 then n = 1e5 // math.max(#s, 1) end
  return string.rep(s, n, sep)
end

local function session()
  local env = {
    lied = lied, math = math, string = safe_string, table = table, utf8 = utf8,
    pairs = pairs, ipairs = ipairs, next = next, select = select, type = type,
    tostring = tostring, tonumber = tonumber, pcall = pcall, error = error,
    assert = assert, rawget = rawget, rawequal = rawequal, rawlen = rawlen,
    print = function() end, setmetatable = setmetatable, getmetatable = getmetatable,
    results = nil,
  }
  repl.install(env)
  repl.clear() -- each unit a fresh session: results of earlier units are not kept
  local load_, save_, plot_, run_ = env.load, env.save, env.plot, env.run
  env.load = function(x, ...)
    if type(x) == "string" and not x:match("%.lua$") and not x:find("/", 1, true) then
      return load_(x, "=fuzz", "t", env) -- a chunk: Lua's load, text only, in the sandbox
    end
    return load_(file_of(x), ...)
  end
  env.run = function(x, ...)
    local o = select(1, ...)
    if type(o) == "table" then
      o.out = o.out and "none"; o.clients = nil
      if type(o.stop) == "number" and o.stop > 100 then o.stop = 100 end
    end
    return run_(file_of(x), ...)
  end
  env.save = function(p, ...) return save_(out_path(p), ...) end
  env.plot = function(...)
    local args = table.pack(...)
    local last = args[args.n]
    if type(last) == "table" and getmetatable(last) == nil then
      last.file = scratch .. ".svg"
    else
      args[args.n + 1] = { file = scratch .. ".svg" }
      args.n = args.n + 1
    end
    return plot_(table.unpack(args, 1, args.n))
  end
  env.replot = function() return plot_(nil, { file = scratch .. ".svg" }) end
  return env
end

-- compile as src/app/repl.c does: an expression first, then a statement
-- chunk, joining continuation lines while it is incomplete
local function compile(lines, i, env)
  if lines[i]:find("%z") then return nil, i end -- repl.c refuses a line with a NUL byte
  local f = load("return " .. lines[i] .. ";", "=stdin", "t", env)
  if f then return f, i end
  local chunk = lines[i]
  while true do
    local g, err = load(chunk, "=stdin", "t", env)
    if g or not (err and err:find("<eof>", 1, true)) or i >= #lines then return g, i end
    i = i + 1
    if lines[i]:find("%z") then return nil, i end -- ... and abandons its chunk
    chunk = chunk .. "\n" .. lines[i]
  end
end

return function(bytes)
  local lines = {}
  for l in (bytes .. "\n"):gmatch("([^\n]*)\n") do
    if #lines >= 16 then break end
    lines[#lines + 1] = l
  end
  local env = session()
  io.stdout = devnull
  local i = 1
  while i <= #lines do
    local f
    f, i = compile(lines, i, env)
    if f then
      debug.sethook(function() error("fuzz: instruction budget", 0) end, "", 1e7)
      pcall(f)
      debug.sethook()
    end
    i = i + 1
  end
  io.stdout = real_stdout
  for _, e in ipairs { ".csv", ".mat", ".svg" } do os.remove(scratch .. e) end
end
