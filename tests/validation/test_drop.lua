-- Dialectic mechanics, the drop model (examples/drop.lua): a 0.1 kg body
-- dropped onto a stiff elasto-gap floor (c = 1e7 N/m, d = 100 N.s/m).
--  * T_D = 0.01 s: rk3 at a fixed step of 0.01 s over 5 s stays finite and
--    comes to rest at -m g / c;
--  * T_D = 0 (rigid form) at the same step is unstable; at 1e-5 s it agrees
--    with the dialectic run on the rest position;
--  * eigenvalues of the linearisation at rest (finite differences of
--    built:derivatives()): bounded by about 1/T_D in dialectic form, about
--    sqrt(c/m) in rigid form (docs/dialectic.md).
local lied = require "lied"
local T = require "tests.testing"

local Drop = dofile("examples/drop.lua")
local m, g, c, d = 0.1, 9.81, 1e7, 100
local rest = -m * g / c

-- structure: one joint, one section of size 1 in both forms
for _, td in ipairs { 0, 0.01 } do
  local info = lied.build(Drop, { T_D = td }):info()
  T.eq(info.states, 2, "T_D = " .. td .. ": two states")
  T.eq(info.max_section, 1, "T_D = " .. td .. ": one 1x1 section")
end
local names = {}
for _, v in ipairs(lied.build(Drop):vars("slider.*")) do names[v[1] or v.name] = v.kind or v[3] end
T.eq(names["slider.v_el"], "tearing", "dialectic form: tearing variable slider.v_el")
names = {}
for _, v in ipairs(lied.build(Drop, { T_D = 0 }):vars("slider.*")) do names[v[1] or v.name] = v.kind or v[3] end
T.eq(names["slider.a"], "tearing", "rigid form: tearing variable slider.a")

local function run(set, opts)
  opts = opts or {}
  opts.set = set
  opts.vars = "slider.s,slider.v,floor.f"
  local ok, res = pcall(function() return lied.simulate(Drop, opts):run() end)
  if not ok then return nil, res end
  return { s = T.column(res, "slider.s"), v = T.column(res, "slider.v"), f = T.column(res, "floor.f"),
           t = T.column(res, "time") }
end

local function finite(x) return x == x and x > -math.huge and x < math.huge end

-- 1. dialectic form, rk3 at 100 Hz
local dia = assert(run({ T_D = 0.01 }, { dt = 0.01, solver = "rk3", stop = 5 }))
local allfinite, maxs, minf = true, 0, math.huge
for i = 1, #dia.s do
  allfinite = allfinite and finite(dia.s[i]) and finite(dia.v[i])
  maxs = math.max(maxs, math.abs(dia.s[i]))
  if dia.t[i] > 0.2 then minf = math.min(minf, dia.f[i]) end
end
T.check(allfinite, "T_D = 0.01, rk3, dt = 0.01: all states finite")
T.check(maxs <= 0.1 + 1e-12, "no blow-up: |s| stays below the drop height")
T.near(dia.t[#dia.t], 5, 1e-12, "ran to 5 s")
local s_dia = dia.s[#dia.s]
T.near(s_dia, rest, 0.01 * math.abs(rest), "T_D = 0.01: rest position -m g / c")
T.check(minf >= 0, string.format("contact force never pulls in contact (min %.3g N)", minf))

-- 2. rigid form at the same step: unstable (fails or diverges)
local rig, err = run({ T_D = 0 }, { dt = 0.01, solver = "rk3", stop = 5 })
local diverged = rig == nil
if rig then
  for i = 1, #rig.s do
    if not finite(rig.s[i]) or math.abs(rig.s[i]) > 1 or math.abs(rig.v[i]) > 100 then diverged = true end
  end
end
T.check(diverged, "T_D = 0 at dt = 0.01 is unstable" .. (err and (" (" .. tostring(err) .. ")") or ""))

-- 3. rigid form at a small step agrees on the rest position
local fine = assert(run({ T_D = 0 }, { dt = 1e-5, solver = "rk3", stop = 5, interval = 0.01 }))
local s_rig = fine.s[#fine.s]
T.near(s_rig, s_dia, 0.01 * math.abs(s_dia), "T_D = 0 at dt = 1e-5: same rest position")
local maxpen, bounced = 0, false
for i = 1, #fine.s do
  maxpen = math.max(maxpen, -fine.s[i])
  if fine.v[i] > 0.5 then bounced = true end
  if fine.f[i] < 0 then minf = -1 end
end
T.check(bounced, "rigid form: the body bounces")
T.check(minf >= 0, "rigid contact force never pulls")

-- 4. eigenvalues at rest by central finite differences of the derivatives
local function jacobian(td)
  local x0 = { ["slider.s"] = rest, ["slider.v"] = 0 }
  local h = { ["slider.s"] = 1e-10, ["slider.v"] = 1e-7 }
  local order = { "slider.s", "slider.v" }
  local J = { {}, {} }
  for j, xj in ipairs(order) do
    local fp, fm
    for sgn = 1, -1, -2 do
      local set = { T_D = td }
      for k, v in pairs(x0) do set[k] = v end
      set[xj] = x0[xj] + sgn * h[xj]
      local der = lied.build(Drop, set):derivatives()
      if sgn == 1 then fp = der else fm = der end
    end
    for i, xi in ipairs(order) do
      J[i][j] = (fp["der(" .. xi .. ")"] or fp[xi]) - (fm["der(" .. xi .. ")"] or fm[xi])
      J[i][j] = J[i][j] / (2 * h[xj])
    end
  end
  return J
end
local function eig2(J)
  local tr, det = J[1][1] + J[2][2], J[1][1] * J[2][2] - J[1][2] * J[2][1]
  local disc = tr * tr / 4 - det
  if disc >= 0 then
    local r = math.sqrt(disc)
    return { tr / 2 + r, 0 }, { tr / 2 - r, 0 }
  end
  local r = math.sqrt(-disc)
  return { tr / 2, r }, { tr / 2, -r }
end
local function fmt(l) return string.format("%.6g%+.6gi", l[1], l[2]) end
local results = {}
for _, td in ipairs { 0, 0.001, 0.01, 0.1 } do
  local J = jacobian(td)
  local l1, l2 = eig2(J)
  results[#results + 1] = string.format("T_D = %-6g J = [%.6g %.6g; %.6g %.6g]  eigenvalues %s, %s",
    td, J[1][1], J[1][2], J[2][1], J[2][2], fmt(l1), fmt(l2))
  local mag = math.max(math.sqrt(l1[1] ^ 2 + l1[2] ^ 2), math.sqrt(l2[1] ^ 2 + l2[2] ^ 2))
  if td == 0 then
    -- rigid: m s'' = -c s - d s' : lambda = (-d +- sqrt(d^2 - 4 m c)) / (2 m)
    T.near(l1[1], -d / (2 * m), 1e-3 * d / m, "rigid: real part -d/(2m)")
    T.near(math.abs(l1[2]), math.sqrt(4 * m * c - d * d) / (2 * m), 1e-3 * 1e4, "rigid: frequency")
  else
    -- dialectic: lambda = mu / (1 - T_D mu), mu the rigid eigenvalues: inside the
    -- disc |T_D lambda + 1| <= 1, so |lambda| <= 2/T_D and Re lambda < 0
    T.check(mag <= 2 / td, string.format("T_D = %g: |lambda| = %.4g <= 2/T_D", td, mag))
    T.check(l1[1] < 0 and l2[1] < 0, string.format("T_D = %g: stable", td))
    local mu = { -d / (2 * m), math.sqrt(4 * m * c - d * d) / (2 * m) }
    -- predicted lambda = mu / (1 - T_D mu)
    local ar, ai = 1 - td * mu[1], -td * mu[2]
    local den = ar * ar + ai * ai
    local pr, pi = (mu[1] * ar + mu[2] * ai) / den, (mu[2] * ar - mu[1] * ai) / den
    local near = math.min(math.sqrt((l1[1] - pr) ^ 2 + (math.abs(l1[2]) - math.abs(pi)) ^ 2),
      math.sqrt((l2[1] - pr) ^ 2 + (math.abs(l2[2]) - math.abs(pi)) ^ 2))
    T.check(near < 1e-3 * math.sqrt(pr * pr + pi * pi),
      string.format("T_D = %g: eigenvalue = mu/(1 - T_D mu) = %.6g%+.6gi", td, pr, pi))
  end
end
for _, r in ipairs(results) do io.stdout:write(r, "\n") end
io.stdout:write(string.format("rest: dialectic %.6g m, rigid (dt 1e-5) %.6g m, -m g/c = %.6g m; rigid max penetration %.3g m\n",
  s_dia, s_rig, rest, maxpen))
T.done()
