-- tests/testing.lua: a tiny assertion library for lied's Lua tests.
-- Usage: local T = require "tests.testing"; T.near(a, b, tol, "what"); ...; T.done()
local T = { passed = 0, failed = 0 }

local function report(ok, msg)
  if ok then
    T.passed = T.passed + 1
  else
    T.failed = T.failed + 1
    local info = debug.getinfo(3, "Sl")
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
-- name. nil when the file cannot be opened.
function T.take_csv(path)
  local f = io.open(path, "r")
  if not f then return nil end
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

function T.done()
  print(string.format("%d passed, %d failed", T.passed, T.failed))
  os.exit(T.failed == 0 and 0 or 1)
end

return T
