-- Mechanics components one by one: defaults, drive inputs, reaction
-- forces, static equilibrium, constant sections, section structure.
local lied = require "lied"
local mech = require "lied.mechanics"
local T = require "tests.testing"

local function chain(def)
  -- def: list of {name, component}; connects them frame_b -> frame_a in order
  local m = { connect = {} }
  for i, c in ipairs(def) do
    m[c[1]] = c[2]
    if i > 1 then m.connect[#m.connect + 1] = { def[i - 1][1] .. ".frame_b", c[1] .. ".frame_a" } end
  end
  return m
end

-- Body: default gravity (0, -9.81); a body on a vertical slide falls freely
do
  local m = chain { { "f", mech.Fixed {} }, { "p", mech.Prismatic { e = { 0, 2 } } }, { "b", mech.Body { m = 3 } } }
  local d = lied.build(lied.model "Fall"(m)):derivatives()
  T.near(d["p.v"], -9.81, 1e-13, "free fall with the default gravity")
  local m2 = chain { { "f", mech.Fixed {} }, { "p", mech.Prismatic { e = { 0, 1 } } },
                     { "b", mech.Body { m = 3, g = { 0, -1.62 } } } }
  T.near(lied.build(lied.model "Moon"(m2)):derivatives()["p.v"], -1.62, 1e-15, "gravity g set")
  -- the default slide direction is x: no acceleration under gravity
  local m3 = chain { { "f", mech.Fixed {} }, { "p", mech.Prismatic {} }, { "b", mech.Body {} } }
  T.eq(lied.build(lied.model "Flat"(m3)):derivatives()["p.v"], 0, "default e = {1, 0}")
  -- inclined slide (e normalised): a = -g sin(angle)
  local m4 = chain { { "f", mech.Fixed { phi = 0.4 } }, { "p", mech.Prismatic { e = { 5, 0 } } }, { "b", mech.Body {} } }
  T.near(lied.build(lied.model "Incline"(m4)):derivatives()["p.v"], -9.81 * math.sin(0.4), 1e-14,
    "slide in a rotated ground frame")
end

-- Revolute: tau + u drives the joint; an unconnected u reads 0
do
  local function spin(extra, connect_u)
    local m = chain { { "f", mech.Fixed {} }, { "r", mech.Revolute(extra) },
                      { "b", mech.Body { I = 0.5, g = { 0, 0 } } } }
    if connect_u then
      m.src = connect_u
      m.connect[#m.connect + 1] = { "src.y", "r.u" }
    end
    return lied.build(lied.model "Spin"(m))
  end
  T.eq(spin({}):derivatives()["r.w"], 0, "free joint, no torque")
  T.near(spin({ tau = 1.5 }):derivatives()["r.w"], 3, 1e-15, "constant torque tau")
  T.near(spin({ tau = 1.5 }, mech.Constant { k = 0.5 }):derivatives()["r.w"], 4, 1e-15, "tau + u (Constant)")
  T.near(spin({}, mech.Sine { A = 2, w = 3, phase = math.pi / 2 }):derivatives(0)["r.w"], 4, 1e-14,
    "u from Sine at t = 0")
  T.near(spin({}, mech.Sine { A = 2, w = 3 }):derivatives(0.5)["r.w"], 4 * math.sin(1.5), 1e-14,
    "u from Sine at t = 0.5")
  local built = spin({})
  T.eq(built:value("r.u"), 0, "unconnected u reads 0")
  -- a joint with only a body at its axis: constant matrix, factorised once
  local info = built:info()
  T.eq(info.constant_sections, 1, "revolute + body: constant section")
  local _, stats = built:run { stop = 0.1, out = "none" }
  T.eq(stats.factorisations, 1, "factorised once")
end

-- Prismatic: F drives along e (normalised)
do
  local m = chain { { "f", mech.Fixed {} }, { "p", mech.Prismatic { e = { 3, 4 }, F = 2 } },
                    { "b", mech.Body { m = 4, g = { 0, 0 } } } }
  local built = lied.build(lied.model "Push"(m))
  T.near(built:derivatives()["p.v"], 0.5, 1e-15, "F / m")
  T.near(built:value("p.frame_a.fx"), 2 * 0.6, 1e-15, "force passes to frame_a (x)")
  T.near(built:value("p.frame_a.fy"), 2 * 0.8, 1e-15, "force passes to frame_a (y)")
end

-- Crane crab at t = 0: accelerations and the vertical reaction at the rail
do
  local CraneCrab = require "cranecrab"
  local built = lied.build(CraneCrab)
  local d = built:derivatives()
  local m1, m2, I2, g, X, Y = 1, 0.5, 0.05, 9.81, 0.5, 1.5
  local M11, M12, M22, r2 = m1 + m2, -m2 * Y, m2 * (X * X + Y * Y) + I2, -m2 * g * X
  local det = M11 * M22 - M12 * M12
  local sdd, wd = -M12 * r2 / det, M11 * r2 / det
  T.near(d["prismatic1.v"], sdd, 1e-14, "cart acceleration at t = 0")
  T.near(d["revolute2.w"], wd, 1e-14, "pendulum acceleration at t = 0")
  T.near(built:value("body2.frame_a.ay"), X * wd, 1e-14, "body2 vertical acceleration")
  T.near(built:value("body2.frame_a.ax"), sdd - Y * wd, 1e-14, "body2 horizontal acceleration")
  T.near(built:value("prismatic1.frame_a.fy"), m1 * g + m2 * (X * wd + g), 1e-13,
    "rail carries the weight minus the falling pendulum's share")
  T.near(built:value("prismatic1.frame_a.fx"), 0, 1e-14, "free cart: no horizontal force")
  T.near(built:value("revolute2.res"), 0, 1e-13, "revolute residual solved")
  T.near(built:value("prismatic1.res"), 0, 1e-13, "prismatic residual solved")
  local info = built:info()
  T.eq(info.constant_sections, 0, "crane crab matrix depends on the angle")
end

-- Static equilibrium: a body hanging from a spring on a vertical slide
do
  local c, L0, mb = 200, 0.3, 2
  local m = chain { { "f", mech.Fixed {} }, { "p", mech.Prismatic { e = { 0, 1 }, s = -(L0 + mb * 9.81 / c) } },
                    { "b", mech.Body { m = mb } } }
  m.k = mech.Spring { c = c, s_unstretched = L0 }
  m.connect[#m.connect + 1] = { "f.frame_b", "k.frame_a" }
  m.connect[#m.connect + 1] = { "p.frame_b", "k.frame_b" }
  local built = lied.build(lied.model "Hang"(m))
  T.near(built:derivatives()["p.v"], 0, 1e-13, "spring holds the weight")
  T.near(built:value("k.f"), mb * 9.81, 1e-12, "spring tension = weight")
  T.near(built:value("k.s"), L0 + mb * 9.81 / c, 1e-15, "spring length")
  -- a damper adds d * ds/dt; at rest nothing
  m.k = mech.SpringDamper { c = c, d = 7, s_unstretched = L0 }
  T.near(lied.build(lied.model "Hang2"(m)):derivatives()["p.v"], 0, 1e-13, "spring-damper at rest")
  -- moving down at 1 m/s: the damper pulls up by d
  m.p = mech.Prismatic { e = { 0, 1 }, s = -(L0 + mb * 9.81 / c), v = -1 }
  T.near(lied.build(lied.model "Hang3"(m)):derivatives()["p.v"], 7 / mb, 1e-12, "damper force d v")
  m.k = mech.Damper { d = 7 }
  T.near(lied.build(lied.model "Hang4"(m)):derivatives()["p.v"], (7 - mb * 9.81) / mb, 1e-12,
    "damper alone")
end

-- Line elements at zero length with zero unstretched length: no force, no NaN
do
  local m = chain { { "f", mech.Fixed {} }, { "p", mech.Prismatic { e = { 0, 1 } } }, { "b", mech.Body {} } }
  m.k = mech.SpringDamper { c = 10, d = 1 }
  m.connect[#m.connect + 1] = { "f.frame_b", "k.frame_a" }
  m.connect[#m.connect + 1] = { "p.frame_b", "k.frame_b" }
  local built = lied.build(lied.model "Zero"(m))
  T.near(built:derivatives()["p.v"], -9.81, 1e-15, "zero-length spring-damper: no force")
  T.eq(built:value("k.f"), 0, "zero tension")
end

-- Structure: a chain of n pendulum links is one n x n section; parallel
-- trees are separate sections; a spring between trees does not join them
do
  local n = 6
  local m = { f = mech.Fixed {}, connect = {} }
  local prev = "f.frame_b"
  for i = 1, n do
    m["r" .. i] = mech.Revolute { phi = 0.1 * i }
    m["l" .. i] = mech.FixedTranslation { r = { 0.3, 0 } }
    m["b" .. i] = mech.Body {}
    local c = m.connect
    c[#c + 1] = { prev, "r" .. i .. ".frame_a" }
    c[#c + 1] = { "r" .. i .. ".frame_b", "l" .. i .. ".frame_a" }
    c[#c + 1] = { "l" .. i .. ".frame_b", "b" .. i .. ".frame_a" }
    prev = "l" .. i .. ".frame_b"
  end
  local info = lied.build(lied.model "Chain"(m)):info()
  T.eq(info.sections, 1, "chain: one section")
  T.eq(info.max_section, n, "chain: n x n")
  -- two pendulums joined by a spring: two 1x1 sections
  local P = lied.model "Two" {
    f = mech.Fixed {}, g = mech.Fixed { x = 1 },
    r1 = mech.Revolute {}, l1 = mech.FixedTranslation { r = { 0, -1 } }, b1 = mech.Body {},
    r2 = mech.Revolute {}, l2 = mech.FixedTranslation { r = { 0, -1 } }, b2 = mech.Body {},
    k = mech.Spring { c = 5, s_unstretched = 1 },
    connect = { { "f.frame_b", "r1.frame_a" }, { "r1.frame_b", "l1.frame_a" }, { "l1.frame_b", "b1.frame_a" },
                { "g.frame_b", "r2.frame_a" }, { "r2.frame_b", "l2.frame_a" }, { "l2.frame_b", "b2.frame_a" },
                { "l1.frame_b", "k.frame_a" }, { "l2.frame_b", "k.frame_b" } },
  }
  info = lied.build(P):info()
  T.eq(info.sections, 2, "spring-coupled pendulums: two sections")
  T.eq(info.max_section, 1, "each 1x1")
end
-- stdlib planar.Link: a compound pendulum, mass at the bar's midpoint
do
  local planar = require "planar"
  local L, mb, Ic = 0.8, 2, 0.1
  local P = lied.model "Compound" {
    f = mech.Fixed {}, r = mech.Revolute { phi = 0.3 },
    bar = planar.Link { r = { L, 0 }, m = mb, I = Ic },
    connect = { { "f.frame_b", "r.frame_a" }, { "r.frame_b", "bar.frame_a" } },
  }
  local built = lied.build(P)
  T.near(built:derivatives()["r.w"], -mb * 9.81 * L / 2 * math.cos(0.3) / (Ic + mb * L * L / 4), 1e-14,
    "compound pendulum")
  T.near(built:value("bar.half2.frame_b.x"), L * math.cos(0.3), 1e-15, "bar end")
  T.near(built:value("bar.body.frame_a.y"), L / 2 * math.sin(0.3), 1e-15, "mass at the midpoint")
end
T.done()
