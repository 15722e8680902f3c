-- tests/testing.lua: a tiny assertion library for lied's Lua tests.
-- Usage: local T = require "tests.testing"; T.near(a, b, tol, "what"); ...; T.done()
local T = { passed = 0, failed = 0 }

local function report(ok, msg, level)
  if ok then
    T.passed = T.passed + 1
  else
    T.failed = T.failed + 1
    if T.silent then return ok end -- tests/lua/test_testing.lua: refusals expected
    local info = debug.getinfo(level or 3, "Sl")
    io.stderr:write(string.format("\n%s:%d: FAILED: %s\n", info.short_src, info.currentline, msg))
  end
  return ok
end

-- (report looks two levels up for the caller's line: no tail calls here)
function T.check(cond, msg)
  local ok = report(cond and true or false, msg or "check")
  return ok
end

function T.eq(a, b, msg)
  local ok = report(a == b, string.format("%s: got %s, expected %s", msg or "eq", tostring(a), tostring(b)))
  return ok
end

-- |a - b| <= tol
function T.near(a, b, tol, msg)
  local ok = type(a) == "number" and type(b) == "number" and math.abs(a - b) <= tol
  ok = report(ok, string.format("%s: got %.17g, expected %.17g (tol %g, diff %g)", msg or "near",
    tonumber(a) or 0 / 0, tonumber(b) or 0 / 0, tol, (tonumber(a) or 0 / 0) - (tonumber(b) or 0 / 0)))
  return ok
end

-- fn() must raise an error whose message contains every plain string in
-- pats, and, when kind is given, of that kind ("usage" or "model":
-- lied.error_kind).
function T.raises(fn, pats, msg, kind)
  local ok, err = pcall(fn)
  local r
  if ok then
    r = report(false, (msg or "raises") .. ": no error raised")
    return r
  end
  local got = require("lied").error_kind(err)
  if kind and got ~= kind then
    r = report(false, string.format("%s: a %s error, expected %s: %s", msg or "raises", got, kind,
      tostring(err)))
    return r
  end
  err = tostring(err)
  if type(pats) == "string" then pats = { pats } end
  for _, p in ipairs(pats or {}) do
    if not err:find(p, 1, true) then
      r = report(false, string.format("%s: error %q does not contain %q", msg or "raises", err, p))
      return r
    end
  end
  r = report(true)
  return r
end

-- A run of built model `model` (a declaration: built here) with options
-- opts that fails part way: it keeps its rows, its error is of kind model
-- (a fault during the run); the error's text.
function T.run_fails(model, opts)
  local res, _, err = require("lied").build(model):run(opts)
  T.check(res ~= nil and err ~= nil, "the run returns its result so far and the error")
  T.eq(require("lied").error_kind(err), "model", "a run's failure is of kind model: " .. tostring(err))
  return tostring(err)
end

-- Results a test asserts over must not be empty: a loop over no rows
-- asserts nothing and passes (a run that stopped at once, a variable not
-- recorded, a file not written). These refuse them: a failure is reported and
-- the test stops (error), since what follows would check nothing.
local function refuse(msg) -- called by T.column & co.: the test's line is 4 up
  report(false, msg, 4)
  error("stopped: " .. msg, 0)
end

-- The column `name` of result res (res:column(name)), with at least min
-- values (default 2: a first row and a later one).
function T.column(res, name, min)
  min = min or 2
  if res == nil then refuse(string.format("column %s: no result (the run failed?)", name)) end
  local c, msg = res:column(name)
  if c == nil then refuse(string.format("column %s: %s", name, tostring(msg))) end
  if #c < min then
    refuse(string.format("column %s: %d rows, at least %d expected", name, #c, min))
  end
  return c
end

-- The names of the columns of result res (res:names()), at least min
-- (default 1): for loops comparing every column of two results.
function T.names(res, min)
  min = min or 1
  if res == nil then refuse("names: no result (the run failed?)") end
  local n = res:names()
  if #n < min then refuse(string.format("names: %d columns, at least %d expected", #n, min)) end
  return n
end

-- n, when n >= min (default 1): for loops over rows counted elsewhere,
-- for i = 1, T.rows(#list, "what") do ... end.
function T.rows(n, what, min)
  min = min or 1
  if type(n) ~= "number" or n < min then
    refuse(string.format("%s: %s rows, at least %d expected", what or "rows", tostring(n), min))
  end
  return n
end

-- Run a shell command; returns exit code, stdout, stderr.
function T.sh(cmd)
  local out, errf = os.tmpname(), os.tmpname()
  local ok, how, code = os.execute(cmd .. " >" .. out .. " 2>" .. errf)
  local function slurp(p)
    local f = io.open(p, "r")
    local s = f and f:read("a") or ""
    if f then f:close() end
    os.remove(p)
    return s
  end
  if how == "signal" then code = 128 + code end
  return code, slurp(out), slurp(errf)
end

-- Read a CSV file of lied's (a header of names, rows of numbers) and remove
-- it: names, rows, each row holding its values both by column number and by
-- name. A file that cannot be opened, or holds fewer than min rows (default
-- 1), fails the test (T.column).
function T.take_csv(path, min)
  local f = io.open(path, "r")
  if not f then refuse("cannot read the CSV file " .. path) end
  local names = {}
  for name in (f:read("l") or ""):gmatch("[^,]+") do names[#names + 1] = name end
  local rows = {}
  for line in f:lines() do
    local r, q = {}, 0
    for v in line:gmatch("[^,]+") do
      q = q + 1
      r[q] = tonumber(v)
      if names[q] then r[names[q]] = r[q] end
    end
    rows[#rows + 1] = r
  end
  f:close()
  os.remove(path)
  if #names == 0 or #rows < (min or 1) then
    refuse(string.format("%s: %d columns, %d rows, at least %d expected", path, #names, #rows,
      min or 1))
  end
  return names, rows
end

-- A PNG's width and height (from its IHDR chunk) and its size in bytes; nil
-- when the file is missing or is not a PNG.
function T.png_size(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local b = f:read("a")
  f:close()
  if b:sub(1, 8) ~= "\137PNG\r\n\26\n" or b:sub(13, 16) ~= "IHDR" then return nil, #b end
  return string.unpack(">I4", b, 17), string.unpack(">I4", b, 21), #b
end

-- The lied binary (ctest passes it in LIED_BIN).
T.lied = os.getenv("LIED_BIN") or "./build/lied"

-- Cases (as tests/cases.h for C): a long test in named parts, each its own
-- ctest, so the parts run on several cores and a failure names its part:
--   if T.case("district") then ... end
-- tests/CMakeLists.txt finds the T.case("name") lines of a test file and adds
-- one ctest per case, lua.test_NAME.case, run as `lied test_NAME.lua case`;
-- without an argument every case runs. A name that matches no case fails at
-- T.done (a misspelt case would otherwise pass, having run nothing).
local case_wanted, case_matched = rawget(_G, "arg") and arg[1], 0
function T.case(name)
  if case_wanted and case_wanted ~= name then return false end
  case_matched = case_matched + 1
  print("case " .. name)
  return true
end

-- T.checked: lied was built with its assertions on (a Debug or sanitizer
-- build, `lied --version` says "assertions on"), where runs are 10 to 30
-- times slower: a test may take smaller sizes there when the size adds no
-- path (its comment says why), as the C tests do with SANITIZED (cases.h).
T.checked = require("lied.core").asserts and true or false

function T.done()
  if case_wanted and case_matched == 0 then
    report(false, "no case '" .. case_wanted .. "' in this test")
  end
  print(string.format("%d passed, %d failed", T.passed, T.failed))
  os.exit(T.failed == 0 and 0 or 1)
end

return T
