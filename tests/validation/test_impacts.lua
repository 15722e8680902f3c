-- How the dialectic form changes an impact (docs/dialectic.md, "Impacts"):
-- a 1 kg body on a vertical slider meets an ElastoGap (c = 1e4 N/m, damping
-- ratio zeta) at 1 m/s without gravity; the restitution e = v_out / v_in of
-- lied's simulation (dopri45 at tol 1e-12, the contact's start and end
-- located as kinks) against the closed form of lied.impacts (the contact's
-- linear motion through its matrix exponential, the release a root of it),
-- for T_D omega0 from 0 (rigid) to 3. The rigid form's closed form is
-- checked first against the textbook one: released where the force falls
-- to 0, omega_d t_c = pi - atan(2 zeta sqrt(1 - zeta^2) / (1 - 2 zeta^2)),
-- e = exp(-zeta omega t_c) |cos(omega_d t_c) - zeta / sqrt(1 - zeta^2)
-- sin(omega_d t_c)|.
local lied = require "lied"
local mech = require "lied.mechanics"
local I = require "lied.impacts"
local T = require "tests.testing"

local m, c = 1, 1e4
local w0 = math.sqrt(c / m)

-- the rigid form against the textbook
for _, zeta in ipairs { 0, 0.05, 0.1, 0.2, 0.4, 0.6 } do
  local wd = w0 * math.sqrt(1 - zeta * zeta)
  local tc = (math.pi - math.atan(2 * zeta * math.sqrt(1 - zeta * zeta) / (1 - 2 * zeta * zeta))) / wd
  local e = math.exp(-zeta * w0 * tc) * math.abs(math.cos(wd * tc) - zeta / math.sqrt(1 - zeta * zeta) * math.sin(wd * tc))
  local ef, tf = I.restitution(m, c, 2 * zeta * math.sqrt(c * m), 0)
  T.near(ef, e, 1e-12, "rigid closed form, zeta " .. zeta)
  T.near(tf, tc, 1e-12, "rigid contact time, zeta " .. zeta)
end

-- lied's simulation of one impact against the closed form
local function simulate(zeta, T_D)
  local M = lied.model "Impact" {
    ground = mech.Fixed {},
    -- starts 1 cm plus twice the anticipation T_D v0 above the floor
    slider = mech.Prismatic { e = { 0, 1 }, s = 0.01 + 2 * T_D, v = -1, T_D = T_D },
    body = mech.Body { m = m, I = 1, g = { 0, 0 } },
    floor = mech.ElastoGap { c = c, d = 2 * zeta * math.sqrt(c * m), n = { 0, 1 }, T_D = T_D },
    connect = { { "ground.frame_b", "slider.frame_a" }, { "slider.frame_b", "body.frame_a" },
                { "ground.frame_b", "floor.frame_a" }, { "slider.frame_b", "floor.frame_b" } },
  }
  local res, st = lied.build(M):run { solver = "dopri45", tol = 1e-12, stop = 2, vars = "slider.v" }
  local v = res:column("slider.v")
  return v[#v], st
end
for _, zeta in ipairs { 0, 0.05, 0.2 } do
  local row = {}
  for _, r in ipairs { 0, 0.01, 0.1, 0.3, 1, 3 } do
    local e_sim, st = simulate(zeta, r / w0)
    local e = I.restitution(m, c, 2 * zeta * math.sqrt(c * m), r / w0)
    T.near(e_sim, e, 1e-9, string.format("zeta %g, T_D omega0 %g: restitution", zeta, r))
    T.eq(st.kinks, 2, string.format("zeta %g, T_D omega0 %g: the contact's start and end", zeta, r))
    -- the rule of thumb of docs/dialectic.md: e(T_D) ~ e(0) exp(-pi T_D omega0)
    local e0 = I.restitution(m, c, 2 * zeta * math.sqrt(c * m), 0)
    T.check(math.abs(e - e0 * math.exp(-math.pi * r)) < 0.02 * e0,
      string.format("zeta %g, T_D omega0 %g: e %.4g against e0 exp(-pi T_D omega0) %.4g", zeta, r, e,
        e0 * math.exp(-math.pi * r)))
    row[#row + 1] = string.format("%.3g", e_sim)
  end
  print(string.format("zeta %-5g e at T_D omega0 = 0, 0.01, 0.1, 0.3, 1, 3: %s", zeta, table.concat(row, " ")))
end

-- the warning: the drop model's T_D = 0.01 s against sqrt(m/c) = 1e-4 s
do
  local w = I.warnings(lied.flatten(dofile("examples/drop.lua")))
  T.eq(#w, 1, "a warning for examples/drop.lua")
  T.check(w[1] and w[1]:find("floor (ElastoGap, examples/drop.lua:20): T_D = 0.01 s is large against "
    .. "the contact's time scale sqrt(m/c) = 0.0001 s (m = 0.1 kg, the lightest body): an impact's "
    .. "restitution is 0.00 in the dialectic form, 0.86 in the rigid form", 1, true), tostring(w[1]))
  T.eq(#I.warnings(lied.flatten(dofile("examples/drop.lua"), { T_D = 1e-7 })), 0,
    "no warning where T_D omega0 = 1e-3")
  T.eq(#I.warnings(lied.flatten(dofile("examples/drop.lua"), { T_D = 0 })), 0, "none in the rigid form")
  -- printed once by lied.build, on stderr
  local code, _, err = T.sh(string.format("%q run examples/drop.lua --stop 0.01 --out none",
    os.getenv("LIED_BIN") or "lied"))
  T.eq(code, 0, "the run goes on")
  T.check(err:find("lied: warning: floor (ElastoGap", 1, true), "warned on stderr: " .. err)
end
T.done()
