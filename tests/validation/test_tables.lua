-- Tables and maps (lied.table, signals.TimeTable / Table1D / Table2D,
-- docs/signals.md): the blocks' outputs at random points against
-- interpolation written out here (linear, Steffen's monotone cubic, bilinear,
-- the bicubic Hermite patch) to 1e-12; per-copy tables; one table shared by
-- 200,000 copies; the lane forms bit for bit; periodic tables landing on their
-- wrap; extrapolation = "error" as a run error; tables from CSV files.
local lied = require "lied"
local S = require "lied.signals"
local th = require "lied.thermal"
local T = require "tests.testing"

local seed = 12345
local function rand() -- a small LCG: the same points every run
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
end

-- ---- the references ---------------------------------------------------------

local function sgn(x) return x > 0 and 1 or (x < 0 and -1 or 0) end
-- Steffen (1990): interior eq. (11) with the limiter, ends eq. (26)/(27)
local function steffen(x, y)
  local n, d = #x, {}
  for k = 2, n - 1 do
    local hm, hp = x[k] - x[k - 1], x[k + 1] - x[k]
    local sm, sp = (y[k] - y[k - 1]) / hm, (y[k + 1] - y[k]) / hp
    local p = (sm * hp + sp * hm) / (hm + hp)
    d[k] = (sgn(sm) + sgn(sp)) * math.min(math.abs(sm), math.abs(sp), 0.5 * math.abs(p))
  end
  local function ends(h1, h2, s1, s2)
    local p = s1 * (1 + h1 / (h1 + h2)) - s2 * h1 / (h1 + h2)
    if p * s1 <= 0 then return 0 elseif math.abs(p) > 2 * math.abs(s1) then return 2 * s1 end
    return p
  end
  d[1] = ends(x[2] - x[1], x[3] - x[2], (y[2] - y[1]) / (x[2] - x[1]), (y[3] - y[2]) / (x[3] - x[2]))
  d[n] = ends(x[n] - x[n - 1], x[n - 1] - x[n - 2], (y[n] - y[n - 1]) / (x[n] - x[n - 1]),
    (y[n - 1] - y[n - 2]) / (x[n - 1] - x[n - 2]))
  return d
end
local function interval(x, v)
  local k = 1
  while k < #x - 1 and x[k + 1] <= v do k = k + 1 end
  return k
end
-- Hermite basis on [0, 1]: value weights of both ends, slope weights
local function basis(u)
  return { 2 * u ^ 3 - 3 * u ^ 2 + 1, -2 * u ^ 3 + 3 * u ^ 2 }, { u ^ 3 - 2 * u ^ 2 + u, u ^ 3 - u ^ 2 }
end
local function lin1(x, y, v)
  local k = interval(x, v)
  return y[k] + (y[k + 1] - y[k]) * (v - x[k]) / (x[k + 1] - x[k])
end
local function cub1(x, y, d, v)
  local k = interval(x, v)
  local h = x[k + 1] - x[k]
  local V, D = basis((v - x[k]) / h)
  return V[1] * y[k] + V[2] * y[k + 1] + h * (D[1] * d[k] + D[2] * d[k + 1])
end

-- ---- Table1D and Table2D at random points, through the blocks ---------------
do
  local n, N = 30, 200
  local x, y = { 0 }, { rand() }
  for k = 2, n do x[k], y[k] = x[k - 1] + 0.1 + rand(), 4 * rand() - 2 end
  local x1, x2, z = { 1 }, { -2 }, {}
  for i = 2, 8 do x1[i] = x1[i - 1] + 0.2 + rand() end
  for j = 2, 6 do x2[j] = x2[j - 1] + 0.5 + 2 * rand() end
  for i = 1, #x1 do
    z[i] = {}
    for j = 1, #x2 do z[i][j] = 10 * rand() end
  end
  local u, a, b = {}, {}, {}
  for i = 1, N do
    u[i] = x[1] + (x[n] - x[1]) * rand()
    a[i], b[i] = x1[1] + (x1[#x1] - x1[1]) * rand(), x2[1] + (x2[#x2] - x2[1]) * rand()
  end
  u[1], a[1], b[1] = x[5], x1[3], x2[4] -- a breakpoint: the value itself
  local lin = lied.table { x = x, y = y }
  local cub = lied.table { x = x, y = y, interpolation = "cubic" }
  local bil = lied.table { x1 = x1, x2 = x2, z = z }
  local bic = lied.table { x1 = x1, x2 = x2, z = z, interpolation = "cubic" }
  local E = lied.model "Probe" {
    cu = S.Constant {}, ca = S.Constant {}, cb = S.Constant {},
    l = S.Table1D { table = lin }, c = S.Table1D { table = cub },
    bl = S.Table2D { table = bil }, bc = S.Table2D { table = bic },
    connect = { { "cu.y", "l.u" }, { "cu.y", "c.u" }, { "ca.y", "bl.u1" }, { "cb.y", "bl.u2" },
                { "ca.y", "bc.u1" }, { "cb.y", "bc.u2" } },
  }
  local M = lied.model "Points" {
    p = lied.array(E, N, { ["cu.k"] = u, ["ca.k"] = a, ["cb.k"] = b }),
  }
  local m = lied.build(M)
  m:derivatives(0)
  -- the bicubic patch's slopes: Steffen's along each grid line, cross mean
  local d1, d2, d12 = {}, {}, {}
  for i = 1, #x1 do d1[i], d2[i], d12[i] = {}, {}, {} end
  for j = 1, #x2 do
    local col = {}
    for i = 1, #x1 do col[i] = z[i][j] end
    local d = steffen(x1, col)
    for i = 1, #x1 do d1[i][j] = d[i] end
  end
  for i = 1, #x1 do d2[i] = steffen(x2, z[i]) end
  for i = 1, #x1 do
    local a1 = steffen(x2, d1[i])
    for j = 1, #x2 do d12[i][j] = a1[j] / 2 end
  end
  for j = 1, #x2 do
    local col = {}
    for i = 1, #x1 do col[i] = d2[i][j] end
    local a2 = steffen(x1, col)
    for i = 1, #x1 do d12[i][j] = d12[i][j] + a2[i] / 2 end
  end
  local ds = steffen(x, y)
  local worst = { l = 0, c = 0, bl = 0, bc = 0 }
  for q = 1, N do
    local function got(b_) return m:value(string.format("p[%d].%s.y", q, b_)) end
    worst.l = math.max(worst.l, math.abs(got("l") - lin1(x, y, u[q])))
    worst.c = math.max(worst.c, math.abs(got("c") - cub1(x, y, ds, u[q])))
    local i, j = interval(x1, a[q]), interval(x2, b[q])
    local h1, h2 = x1[i + 1] - x1[i], x2[j + 1] - x2[j]
    local s, w = (a[q] - x1[i]) / h1, (b[q] - x2[j]) / h2
    local ref = z[i][j] * (1 - s) * (1 - w) + z[i + 1][j] * s * (1 - w) + z[i][j + 1] * (1 - s) * w +
      z[i + 1][j + 1] * s * w
    worst.bl = math.max(worst.bl, math.abs(got("bl") - ref))
    local V, D = basis(s)
    local G, F = basis(w)
    ref = 0
    for p = 0, 1 do
      for r = 0, 1 do
        local ii, jj = i + p, j + r
        ref = ref + V[p + 1] * G[r + 1] * z[ii][jj] + h1 * D[p + 1] * G[r + 1] * d1[ii][jj] +
          h2 * V[p + 1] * F[r + 1] * d2[ii][jj] + h1 * h2 * D[p + 1] * F[r + 1] * d12[ii][jj]
      end
    end
    worst.bc = math.max(worst.bc, math.abs(got("bc") - ref))
  end
  for _, k in ipairs { "l", "c", "bl", "bc" } do
    T.check(worst[k] <= 1e-12, string.format("%s at %d random points: worst %.3g", k, N, worst[k]))
  end
  T.eq(m:value("p[1].l.y"), y[5], "linear at a breakpoint: the value")
  T.eq(m:value("p[1].c.y"), y[5], "cubic at a breakpoint: the value")
  T.eq(m:value("p[1].bc.y"), z[3][4], "bicubic at a grid point: the value")
end

-- ---- per-copy tables, and tables of model parameters --------------------------
do
  local tabs = {}
  for i = 1, 3 do tabs[i] = lied.table { x = { 0, 1 }, y = { 0, 10 * i } } end
  local E = lied.model "E" {
    parameters = { g = 1 },
    c = S.Constant { k = 0.5 }, t = S.Table1D { table = lied.table { x = { 0, 1 }, y = { 0, 1 } } },
    connect = { { "c.y", "t.u" } },
  }
  local M = lied.model "Copies" { e = lied.array(E, 3, { ["t.table"] = function(i) return tabs[i] end }) }
  local m = lied.build(M)
  m:derivatives(0)
  for i = 1, 3 do T.eq(m:value(string.format("e[%d].t.y", i)), 5 * i, "per-copy table " .. i) end
  T.check(m:value("e[2].t.table"):find("2 points", 1, true), "model:value of a table parameter describes it")
  local L = lied.model "List" { e = lied.array(E, 3, { ["t.table"] = { tabs[3], tabs[1], tabs[2] } }) }
  local ml = lied.build(L)
  ml:derivatives(0)
  T.eq(ml:value("e[1].t.y"), 15, "a list of per-copy tables")
  T.raises(function() lied.build(lied.model "Bad" { e = lied.array(E, 2, { ["t.table"] = function(i) return i end }) }) end,
    { "e[1].t: parameter table must be a table (lied.table {...}), got number" }, "a number for a per-copy table")
end

-- ---- one table, 200,000 copies: one copy of the data ---------------------------
do
  local n = 100001 -- 1.6 MB of breakpoints and values: per instance it would be 320 GB
  local x, y = {}, {}
  for k = 1, n do x[k], y[k] = (k - 1) * 0.01, math.sin((k - 1) * 0.01) end
  local tab = lied.table { x = x, y = y }
  local E = lied.model "E" { c = S.Constant { k = 123.456 }, t = S.Table1D { table = tab },
                             connect = { { "c.y", "t.u" } } }
  local function rss()
    local f = io.open("/proc/self/status")
    if not f then return 0 end
    local kb = f:read("a"):match("VmRSS:%s*(%d+)")
    f:close()
    return tonumber(kb) or 0
  end
  local before = rss()
  local m = lied.build(lied.model "Many" { e = lied.array(E, 200000) })
  local grew = (rss() - before) / 1024
  m:derivatives(0)
  T.near(m:value("e[200000].t.y"), lin1({ 123.45, 123.46 }, { math.sin(123.45), math.sin(123.46) }, 123.456),
    1e-12, "the shared table's value in the last copy")
  print(string.format("200,000 copies sharing a table of %d points: %.0f MB more resident", n, grew))
  T.check(grew < 400, string.format("no copy per instance (%.0f MB)", grew))
end

-- ---- lane forms: the same bits as the blocks, copy by copy ------------------
do
  local drive = lied.table { x = { 0, 0.3, 0.7, 1.1, 1.6 }, y = { 0, 2, -1, 0.5, 0 },
                             interpolation = "cubic", extrapolation = "periodic" }
  local E = lied.model "Lane" {
    parameters = { g = 1 },
    tt = S.TimeTable { table = drive }, f = S.Table1D { table = lied.table { x = { -2, 0, 3 }, y = { 4, 0, 9 },
                                                                              interpolation = "cubic" } },
    g2 = S.Table2D { table = lied.table { x1 = { -3, 0, 3 }, x2 = { -5, 5 }, z = { { 1, 2 }, { 0, 3 }, { 4, -1 } },
                                          extrapolation = "linear" } },
    -- integrators with lane forms: heat flows into capacitors
    q1 = th.PrescribedHeatFlow {}, c1 = th.HeatCapacitor { C = 1, T = 1 },
    q2 = th.PrescribedHeatFlow {}, c2 = th.HeatCapacitor { C = 1, T = 1 },
    s1 = th.TemperatureSensor {}, k = S.Gain { k = lied.param "g" },
    connect = { { "tt.y", "f.u" }, { "f.y", "q1.Q_flow_in" }, { "q1.port", "c1.port" }, { "c1.port", "s1.port" },
                { "s1.y", "k.u" }, { "k.y", "g2.u1" }, { "tt.y", "g2.u2" }, { "g2.y", "q2.Q_flow_in" },
                { "q2.port", "c2.port" } },
  }
  local M = lied.model "Lanes" { e = lied.array(E, 70, { g = function(i) return 0.2 + i / 50 end }) }
  local function run(o)
    local b = lied.build(M)
    o.solver, o.dt, o.stop, o.vars = "rk4", 0.01, 4, "e[*].c1.T,e[*].c2.T"
    local r, st = b:run(o)
    return r, st
  end
  local r1, s1 = run {}
  local r2, s2 = run { lanes = false }
  local r3 = run { fuse = false }
  T.check(s1.lanes, "the tables' lane forms run: " .. tostring(s1.no_lanes))
  T.check(not s2.lanes, "lanes = false: copy by copy")
  local same = true
  for _, nm in ipairs { "e[1].c2.T", "e[33].c1.T", "e[70].c2.T" } do
    local a, b, c = T.column(r1, nm), T.column(r2, nm), T.column(r3, nm)
    for k = 1, #a do same = same and a[k] == b[k] and a[k] == c[k] end
  end
  T.check(same, "lanes, copy by copy and whole-vector steps: the same bits")
end

-- ---- periodic TimeTable: the wrap is an event ------------------------------------
do
  -- a sawtooth: y = t over each period of 1 s (jumps back to 0 at the wrap)
  local M = lied.model "Saw" {
    tt = S.TimeTable { table = lied.table { x = { 0, 1 }, y = { 0, 1 }, extrapolation = "periodic" } },
    i = S.Integrator {}, connect = { { "tt.y", "i.u" } },
  }
  local r = lied.build(M):run { solver = "rk4", dt = 0.3, stop = 2.5, vars = "i.y,tt.y" }
  local iy = T.column(r, "i.y")
  T.near(iy[#iy], 0.5 + 0.5 + 0.125, 1e-12, "the integral of 2.5 periods of a sawtooth (rk4 lands on the wraps)")
  local cyc = lied.build(lied.model "C" { tt = S.TimeTable { table = lied.table { x = { 2, 3, 5 }, y = { 1, 3, 1 },
    extrapolation = "periodic" } } })
  for _, c in ipairs { { 2, 1 }, { 2.5, 2 }, { 5, 1 }, { 5.5, 2 }, { 9, 3 }, { 1.5, 1.5 }, { -6, 3 }, { 8, 1 } } do
    cyc:derivatives(c[1])
    T.near(cyc:value("tt.y"), c[2], 1e-12, string.format("periodic table at t = %g", c[1]))
  end
end

-- ---- extrapolation = "error": a run error naming the component and the time ------
do
  local M = lied.model "Short" {
    tt = S.TimeTable { table = lied.table { x = { 0, 1 }, y = { 0, 1 }, extrapolation = "error" } },
    i = S.Integrator {}, connect = { { "tt.y", "i.u" } },
  }
  local _, _, err = lied.build(M):run { solver = "rk4", dt = 0.25, stop = 2 }
  T.check(err and tostring(err):find("tt: ", 1, true) and tostring(err):find("outside the breakpoints [0, 1]", 1, true)
    and tostring(err):find("at t = 1.125", 1, true), "error past the table's end: " .. tostring(err))
end

-- ---- tables from CSV files --------------------------------------------------------
do
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. dir)
  local function write(name, text)
    local f = assert(io.open(dir .. "/" .. name, "w"))
    f:write(text)
    f:close()
    return dir .. "/" .. name
  end
  local p = write("c.csv", "# a comment\n\"t\", speed ,other\n0, 1, 9\n2, 5, 9\n\n4, 3, 9\n")
  local t = lied.table { file = p, x = "t", y = "speed" }
  T.eq(t(1), 3, "CSV columns by name (quoted, spaces)")
  T.eq(t:info().name, p .. ": speed", "named by the file and the column")
  T.raises(function() lied.table { file = p, x = "t", y = "sped" } end, { "no column 'sped'", "speed" },
    "a misspelt column, with a suggestion")
  local q = write("bad.csv", "t,v\n0,1\n1,x\n")
  T.raises(function() lied.table { file = q, x = "t", y = "v" } end, { "bad.csv:3: column v: \"x\" is not a number" },
    "a cell that is not a number")
  T.raises(function() lied.table { file = dir .. "/none.csv", x = "t", y = "v" } end, { "cannot read" }, "no file")
  -- a row of another width than the header (a decimal comma: "1,5" for 1.5 took 1,
  -- the 5 dropped) and a number beyond the doubles are refused with the file's line
  -- (the fourth attack: they were taken, or named as y[2] of the table)
  local w = write("comma.csv", "t,v\n0,1\n1,1,5\n")
  T.raises(function() lied.table { file = w, x = "t", y = "v" } end, { "comma.csv:3: 3 cells for the 2 columns "
    .. "of the header (a decimal comma? lied reads ',' between cells and '.' in numbers)" }, "a row too wide")
  w = write("short.csv", "t,v,w\n0,1,2\n1,1\n")
  T.raises(function() lied.table { file = w, x = "t", y = "v" } end, { "short.csv:3: 2 cells for the 3 columns" },
    "a row too short, though the columns asked for are there")
  w = write("huge.csv", "t,v\n0,1\n1,1e999\n")
  T.raises(function() lied.table { file = w, x = "t", y = "v" } end, { "huge.csv:3: column v: \"1e999\" is not a "
    .. "finite number" }, "a cell beyond the doubles")
  w = write("mapwide.csv", "n,p,eta\n1000,2,0.7,1\n")
  T.raises(function() lied.table { file = w, x1 = "n", x2 = "p", z = "eta" } end,
    { "mapwide.csv:2: 4 cells for the 3 columns" }, "a map's row too wide")
  local g = write("map.csv", "n,p,eta\n1000,2,0.7\n1000,1,0.6\n2000,1,0.65\n2000,2,0.8\n")
  local map = lied.table { file = g, x1 = "n", x2 = "p", z = "eta" }
  T.near(map(1500, 1.5), (0.6 + 0.7 + 0.65 + 0.8) / 4, 1e-15, "a map from a CSV file, one row per point")
  local h = write("hole.csv", "n,p,eta\n1000,2,0.7\n1000,1,0.6\n2000,1,0.65\n")
  T.raises(function() lied.table { file = h, x1 = "n", x2 = "p", z = "eta" } end,
    { "no row for the point (2000, 2): a map needs every point of its grid" }, "a map with a hole")
  -- a byte order mark (as spreadsheets write) is no part of the first name; a
  -- column asked for must be named once
  local b = write("bom.csv", "\239\187\191t,v\n0,1\n1,3\n")
  T.eq(lied.table { file = b, x = "t", y = "v" }(0.5), 2, "a UTF-8 byte order mark skipped")
  local d = write("dup.csv", "t,v,t\n0,1,5\n1,3,6\n")
  T.raises(function() lied.table { file = d, x = "t", y = "v" } end,
    { "dup.csv:1: two columns are named 't' (columns 1 and 3): which one is meant?" }, "a name given twice")
  T.eq(lied.table { file = write("dup2.csv", "t,v,w,w\n0,1,5,5\n1,3,6,6\n"), x = "t", y = "v" }(1), 3,
    "a name given twice that is not asked for")
  os.execute("rm -r " .. dir)
  T.raises(function() lied.table { x = { 0, 1 }, y = { 0, 1 }, extrapolation = "wrap" } end,
    { "extrapolation must be \"hold\", \"linear\", \"periodic\" or \"error\", got \"wrap\"" }, "an unknown extrapolation")
  T.raises(function() lied.table { x = { 0, 1 }, y = { 0, 1 }, interp = "cubic" } end,
    { "unknown field 'interp' (did you mean 'interpolation'?)" }, "a misspelt option")
end
T.done()
