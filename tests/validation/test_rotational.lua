-- Validation of the rotational library (lied.rotational, docs/rotational.md)
-- against closed-form solutions, each to 1e-8 (dopri45 at tol 1e-12):
-- an inertia on a spring, two inertias on a spring, spin-down under a
-- damper, a damped oscillation, a torque through a gear, a speed source
-- driving through a damper, clutch engagement and breakaway, a brake
-- stopping a shaft, the sensors.
local lied = require "lied"
local rot = require "lied.rotational"
local S = require "lied.signals"
local T = require "tests.testing"

local opts = { solver = "dopri45", tol = 1e-12 }
local function run(M, stop, vars, over)
  local o = { stop = stop, interval = stop / 50, vars = vars }
  for k, v in pairs(opts) do o[k] = v end
  for k, v in pairs(over or {}) do o[k] = v end
  return lied.simulate(M, o):run()
end
-- the largest |res[name] - f(t)| / scale over the rows
local function worst(res, name, f, scale)
  local t, y, w = T.column(res, "time"), T.column(res, name), 0
  for i = 1, #t do w = math.max(w, math.abs(y[i] - f(t[i])) / scale) end
  return w
end
local function close(res, name, f, scale, what, tol)
  local w = worst(res, name, f, scale)
  print(string.format("%-50s %.3g", what, w))
  T.check(w < (tol or 1e-8), string.format("%s: %.3g", what, w))
end
-- the times at which the result has two rows (events)
local function events(res)
  local t, out = T.column(res, "time"), {}
  for i = 2, #t do if t[i] == t[i - 1] then out[#out + 1] = t[i] end end
  return out
end
local function row_after(res, te)
  local t = T.column(res, "time")
  for i = 2, #t do if t[i] == te and t[i - 1] == te then return i end end
end

-- 1. An inertia on a spring to the ground: phi = phi0 cos(w t) + (w0/w) sin(w t), w^2 = c/J.
do
  local J, c, phi0, w0 = 0.2, 5, 0.3, -1.5
  local M = lied.model "Osc" {
    ground = rot.Fixed { phi0 = 0.1 },
    spring = rot.Spring { c = c, phi_rel0 = 0.1 },
    shaft = rot.Inertia { J = J, phi = phi0 + 0.2, w = w0 },
    connect = { { "ground.flange", "spring.flange_a" }, { "shaft.flange_b", "spring.flange_b" } },
  }
  local om = math.sqrt(c / J)
  local res = run(M, 5, "shaft.phi,shaft.w,spring.tau,ground.tau")
  local amp = math.sqrt(phi0 ^ 2 + (w0 / om) ^ 2)
  -- at rest at phi = 0.2: the ground's 0.1 and the unstretched 0.1
  close(res, "shaft.phi", function(t) return 0.2 + phi0 * math.cos(om * t) + w0 / om * math.sin(om * t) end,
    amp, "inertia on a spring: angle")
  close(res, "shaft.w", function(t) return -phi0 * om * math.sin(om * t) + w0 * math.cos(om * t) end,
    amp * om, "inertia on a spring: speed")
  close(res, "spring.tau", function(t) return c * (phi0 * math.cos(om * t) + w0 / om * math.sin(om * t)) end,
    c * amp, "inertia on a spring: spring torque")
  -- the ground delivers what the spring's flange_a takes: -tau
  local n = res:nrows()
  T.near(T.column(res, "ground.tau")[n], -T.column(res, "spring.tau")[n], 1e-12, "ground torque")
end

-- 2. Two inertias on a spring: the relative angle oscillates at w^2 = c (1/J1 + 1/J2);
-- the angular momentum J1 w1 + J2 w2 is conserved.
do
  local J1, J2, c = 0.5, 2, 30
  local M = lied.model "Pair" {
    a = rot.Inertia { J = J1, w = 3 },
    b = rot.Inertia { J = J2, phi = 0.2, w = 1 },
    s = rot.Spring { c = c },
    connect = { { "a.flange_b", "s.flange_a" }, { "b.flange_a", "s.flange_b" } },
  }
  local res = run(M, 4, "a.w,b.w,s.phi_rel")
  local om, r0, v0 = math.sqrt(c * (1 / J1 + 1 / J2)), 0.2, 1 - 3
  close(res, "s.phi_rel", function(t) return r0 * math.cos(om * t) + v0 / om * math.sin(om * t) end,
    math.sqrt(r0 ^ 2 + (v0 / om) ^ 2), "two inertias on a spring: relative angle")
  local a, b, L0, wl = T.column(res, "a.w"), T.column(res, "b.w"), J1 * 3 + J2 * 1, 0
  for i = 1, #a do wl = math.max(wl, math.abs(J1 * a[i] + J2 * b[i] - L0) / L0) end
  T.check(wl < 1e-12, "angular momentum conserved: " .. wl)
end

-- 3. Spin-down under a damper: w = w0 exp(-d t/J), phi = w0 J/d (1 - exp(-d t/J)), P_loss = d w^2.
do
  local J, d, w0 = 0.05, 0.02, 300
  local M = lied.model "SpinDown" {
    ground = rot.Fixed {},
    damper = rot.Damper { d = d },
    shaft = rot.Inertia { J = J, w = w0 },
    speed = rot.SpeedSensor {},
    connect = { { "ground.flange", "damper.flange_a" }, { "shaft.flange_a", "damper.flange_b" },
                { "shaft.flange_b", "speed.flange" } },
  }
  local k = d / J
  local res = run(M, 10, "shaft.w,shaft.phi,damper.P_loss,speed.y,speed.w")
  close(res, "shaft.w", function(t) return w0 * math.exp(-k * t) end, w0, "spin-down: speed")
  close(res, "shaft.phi", function(t) return w0 / k * (1 - math.exp(-k * t)) end, w0 / k,
    "spin-down: angle")
  close(res, "damper.P_loss", function(t) return d * (w0 * math.exp(-k * t)) ^ 2 end, d * w0 ^ 2,
    "spin-down: power dissipated")
  close(res, "speed.y", function(t) return w0 * math.exp(-k * t) end, w0, "speed sensor")
  T.eq(T.column(res, "speed.w")[5], T.column(res, "speed.y")[5], "speed sensor variable")
end

-- 4. A damped oscillation (SpringDamper to the ground, underdamped):
-- phi = exp(-z t) (phi0 cos(wd t) + (w0 + z phi0)/wd sin(wd t)), z = d/(2J), wd^2 = c/J - z^2.
do
  local J, c, d, phi0, w0 = 1.5, 40, 3, 0.4, 2
  local M = lied.model "Damped" {
    ground = rot.Fixed {},
    sd = rot.SpringDamper { c = c, d = d },
    shaft = rot.Inertia { J = J, phi = phi0, w = w0 },
    connect = { { "ground.flange", "sd.flange_a" }, { "shaft.flange_a", "sd.flange_b" } },
  }
  local z = d / (2 * J)
  local wd = math.sqrt(c / J - z * z)
  local res = run(M, 6, "shaft.phi,sd.tau,sd.P_loss,sd.w_rel")
  local function phi(t)
    return math.exp(-z * t) * (phi0 * math.cos(wd * t) + (w0 + z * phi0) / wd * math.sin(wd * t))
  end
  close(res, "shaft.phi", phi, phi0, "spring-damper: damped oscillation")
  local n = res:nrows()
  local w = T.column(res, "sd.w_rel")[n]
  T.near(T.column(res, "sd.tau")[n], c * T.column(res, "shaft.phi")[n] + d * w, 1e-12, "spring-damper torque")
  T.near(T.column(res, "sd.P_loss")[n], d * w * w, 1e-12, "spring-damper power dissipated")
end

-- 5. A constant torque on node a driving node b through a gear (phi_a = r phi_b):
-- a_a = tau / (J_a + J_b / r^2), the gear's torque at flange_b is -J_b a_b;
-- with a TorqueSensor between the gear and b, and a negative ratio.
for _, r in ipairs { 3, -0.5 } do
  local Ja, Jb, tau = 0.1, 2, 7
  local M = lied.model "Geared" {
    drive = rot.Torque { tau = 4 },
    u = S.Constant { k = tau - 4 },
    a = rot.Inertia { J = Ja, w = 6 * r },
    gear = rot.IdealGear { ratio = r },
    b = rot.Inertia { J = Jb, w = 6 },
    sens = rot.TorqueSensor {},
    connect = { { "a.flange_a", "drive.flange" }, { "u.y", "drive.u" },
                { "a.flange_b", "gear.flange_a" }, { "b.flange_a", "sens.flange_a" },
                { "sens.flange_b", "gear.flange_b" } },
  }
  local aa = tau / (Ja + Jb / r ^ 2)
  local res = run(M, 2, "a.w,b.w,gear.tau,gear.w_err,sens.y,sens.P,drive.P,drive.torque")
  close(res, "a.w", function(t) return 6 * r + aa * t end, math.abs(6 * r + aa * 2), "gear " .. r .. ": driving speed")
  close(res, "b.w", function(t) return 6 + aa / r * t end, math.abs(6 + aa / r * 2), "gear " .. r .. ": driven speed")
  close(res, "gear.tau", function() return -Jb * aa / r end, math.abs(Jb * aa / r), "gear " .. r .. ": torque at flange_b")
  close(res, "sens.y", function() return -Jb * aa / r end, math.abs(Jb * aa / r), "gear " .. r .. ": torque sensor")
  local n = res:nrows()
  T.near(T.column(res, "drive.torque")[n], tau, 1e-15, "torque = tau + u")
  T.near(T.column(res, "drive.P")[n], tau * T.column(res, "a.w")[n], 1e-9, "torque source's power")
  T.near(T.column(res, "sens.P")[n], T.column(res, "sens.y")[n] * T.column(res, "b.w")[n], 1e-9, "sensor power")
  T.check(math.abs(T.column(res, "gear.w_err")[n]) < 1e-12, "the gear's speed constraint holds")
end

-- 6. A speed source (first order, T) driving an inertia through a damper:
-- w_s = W (1 - exp(-t/T)); J w' = d (w_s - w), w(0) = 0:
-- w = W (1 - exp(-k t)) + A (exp(-t/T) - exp(-k t)), k = d/J, A = -k W/(k - 1/T).
do
  local W, Tc, J, d = 50, 0.2, 0.4, 0.8
  local M = lied.model "Driven" {
    src = rot.Speed { w_ref = W - 10, T = Tc },
    ten = S.Constant { k = 10 },
    damper = rot.Damper { d = d },
    shaft = rot.Inertia { J = J },
    connect = { { "src.flange", "damper.flange_a" }, { "shaft.flange_a", "damper.flange_b" },
                { "ten.y", "src.u" } },
  }
  local k = d / J
  local A = -k * W / (k - 1 / Tc)
  local res = run(M, 3, "src.w,src.tau,src.P,src.w_set,shaft.w")
  local function ws(t) return W * (1 - math.exp(-t / Tc)) end
  local function w(t) return W * (1 - math.exp(-k * t)) + A * (math.exp(-t / Tc) - math.exp(-k * t)) end
  close(res, "src.w", ws, W, "speed source: its speed")
  close(res, "shaft.w", w, W, "speed source: the driven inertia")
  close(res, "src.tau", function(t) return d * (ws(t) - w(t)) end, d * W, "speed source: torque delivered")
  close(res, "src.P", function(t) return d * (ws(t) - w(t)) * ws(t) end, d * W * W, "speed source: power")
  T.eq(T.column(res, "src.w_set")[3], W, "reference w_ref + u")
end

-- 7. Clutch engagement: J1 at w1 and J2 at w2 < w1, kinetic torque tk = mu cgeo fn:
-- they lock at t = (w1 - w2) / (tk (1/J1 + 1/J2)) at (J1 w1 + J2 w2)/(J1 + J2).
-- The normal force comes with a Step at t0 (a time event).
do
  local J1, J2, w1, w2, mu, cgeo, fnmax, t0 = 2, 0.5, 80, -10, 0.3, 0.15, 400, 0.25
  local M = lied.model "Engage" {
    a = rot.Inertia { J = J1, w = w1 },
    b = rot.Inertia { J = J2, w = w2 },
    c = rot.Clutch { mu = mu, peak = 1.2, cgeo = cgeo, fn_max = fnmax },
    f = S.Step { height = 1, t0 = t0 },
    connect = { { "a.flange_b", "c.flange_a" }, { "b.flange_a", "c.flange_b" },
                { "f.y", "c.f_normalized" } },
  }
  local tk = mu * cgeo * fnmax
  local tl = t0 + (w1 - w2) / (tk * (1 / J1 + 1 / J2))
  local wl = (J1 * w1 + J2 * w2) / (J1 + J2)
  for _, o in ipairs { opts, { solver = "rk4", dt = 0.01 } } do
    local res = run(M, 3, "a.w,b.w,c.tau,c.mode,c.P_loss,c.w_rel", o)
    local ev = events(res)
    T.eq(#ev, 2, o.solver .. ": clutch: two events (engage, lock)")
    if #ev == 2 then
      T.eq(ev[1], t0, o.solver .. ": engages at the step")
      print(string.format("%-50s %.3g", o.solver .. ": clutch lock time", math.abs(ev[2] - tl) / tl))
      T.check(math.abs(ev[2] - tl) / tl < 1e-8, o.solver .. ": locks at (w1 - w2)/(tk (1/J1 + 1/J2))")
      local i = row_after(res, ev[2])
      T.eq(T.column(res, "c.mode")[i - 1], -1, "slipping backward before")
      T.eq(T.column(res, "c.mode")[i], 0, "stuck after")
      T.near(T.column(res, "c.tau")[i - 1], -tk, 1e-12, "kinetic torque while slipping")
      T.near(T.column(res, "c.tau")[i], 0, 1e-9, "no torque to hold two free inertias")
    end
    close(res, "a.w", function(t)
      if t < t0 then return w1 end
      if t < tl then return w1 - tk / J1 * (t - t0) end
      return wl
    end, w1, o.solver .. ": clutch: driving speed", o.solver == "rk4" and 1e-7 or nil)
    local n = res:nrows()
    T.check(math.abs(T.column(res, "c.w_rel")[n]) < 1e-9, "stuck: no relative speed")
  end
end

-- 8. Breakaway: a clutch stuck from the start (both at rest) and a torque
-- ramp k t on b. Stuck, the pair turns as one, a = k t/(J1 + J2), and the
-- clutch passes J1 a to a; it slips when that exceeds tau_s = peak tk, at
-- t_b = tau_s (J1 + J2)/(J1 k). Then a gets tk: w_a = w(t_b) + tk/J1 (t - t_b).
do
  local J1, J2, k, mu, peak, cgeo, fnmax = 1, 3, 20, 0.4, 1.5, 0.1, 100
  local M = lied.model "Break" {
    a = rot.Inertia { J = J1 },
    b = rot.Inertia { J = J2 },
    c = rot.Clutch { mu = mu, peak = peak, cgeo = cgeo, fn_max = fnmax },
    one = S.Constant { k = 1 },
    drive = rot.Torque {},
    ramp = S.Ramp { height = k * 10, duration = 10 },
    connect = { { "a.flange_b", "c.flange_a" }, { "b.flange_a", "c.flange_b" },
                { "one.y", "c.f_normalized" }, { "b.flange_b", "drive.flange" },
                { "ramp.y", "drive.u" } },
  }
  local tk = mu * cgeo * fnmax
  local tb = peak * tk * (J1 + J2) / (J1 * k)
  local wb = k * tb * tb / 2 / (J1 + J2)
  local built = lied.build(M)
  local function check(res, tag, start)
    local ev = events(res)
    if start then -- the start's check (see below): one event just after t = 0, still stuck
      T.check(#ev >= 1 and ev[1] > 0 and ev[1] < 1e-300, tag .. ": the start checked")
      local i = row_after(res, ev[1])
      T.eq(i and T.column(res, "c.mode")[i], 0, tag .. ": stuck at the start")
      table.remove(ev, 1)
    end
    T.eq(#ev, 1, tag .. ": one event (breakaway)")
    if #ev >= 1 then
      print(string.format("%-50s %.3g", tag .. ": breakaway time", math.abs(ev[1] - tb) / tb))
      T.check(math.abs(ev[1] - tb) / tb < 1e-8, tag .. ": breaks away at tau_s (J1 + J2)/(J1 k)")
      local i = row_after(res, ev[1])
      T.eq(T.column(res, "c.mode")[i], 1, tag .. ": slips forward (b drives)")
      T.near(T.column(res, "c.tau")[i - 1], peak * tk, 1e-6, tag .. ": at the static limit")
    end
    close(res, "a.w", function(t)
      if t < tb then return k * t * t / 2 / (J1 + J2) end
      return wb + tk / J1 * (t - tb)
    end, wb + tk / J1 * 2, tag .. ": breakaway: speed of a")
  end
  local o = { stop = 2, interval = 0.04, vars = "a.w,c.tau,c.mode", solver = "dopri45", tol = 1e-12 }
  check(built:run(o), "first run")
  -- a second run starts like the first (stuck at rest). It ended slipping,
  -- so the evaluation before its start was not stuck: the clutch checks
  -- its start at the first time after it (a time event at t = 5e-324).
  check(built:run(o), "second run", true)
end

-- 9. A torque larger than the static limit from the start: slips at once.
do
  local M = lied.model "Slip0" {
    a = rot.Inertia { J = 1 },
    b = rot.Inertia { J = 1 },
    c = rot.Clutch { mu = 0.5, cgeo = 1, fn_max = 2 },
    one = S.Constant { k = 1 },
    drive = rot.Torque { tau = 5 },
    connect = { { "a.flange_b", "c.flange_a" }, { "b.flange_a", "c.flange_b" },
                { "one.y", "c.f_normalized" }, { "b.flange_b", "drive.flange" } },
  }
  local built = lied.build(M)
  for pass = 1, 2 do
    local res = built:run { stop = 1, solver = "dopri45", tol = 1e-12, interval = 0.1,
      vars = "a.w,b.w,c.mode" }
    local n = res:nrows()
    T.eq(T.column(res, "c.mode")[n], 1, "run " .. pass .. ": slipping")
    T.near(T.column(res, "a.w")[n], 1, 1e-9, "run " .. pass .. ": a gets the kinetic torque 1 N.m")
    T.near(T.column(res, "b.w")[n], 4, 1e-9, "run " .. pass .. ": b gets 5 - 1 N.m")
  end
end

-- 10. A brake applied by a Step at t0 to a spinning shaft under a small
-- constant torque tq below the static limit: w = w0 + tq t/J before t0,
-- then decelerates at (tk - tq)/J, stops at t_s and stays.
do
  local J, w0, tq, t0, mu, cgeo, fnmax = 0.3, 40, 2, 0.5, 0.25, 0.2, 300
  local M = lied.model "Stop" {
    shaft = rot.Inertia { J = J, w = w0 },
    brake = rot.Brake { mu = mu, cgeo = cgeo, fn_max = fnmax },
    push = rot.Torque { tau = tq },
    f = S.Step { height = 1, t0 = t0 },
    connect = { { "shaft.flange_a", "brake.flange" }, { "shaft.flange_b", "push.flange" },
                { "f.y", "brake.f_normalized" } },
  }
  local tk = mu * cgeo * fnmax
  local w1 = w0 + tq * t0 / J
  local ts = t0 + w1 * J / (tk - tq)
  local res = run(M, 3, "shaft.w,brake.tau,brake.mode,brake.P_loss")
  local ev = events(res)
  T.eq(#ev, 2, "brake: two events (applied, stopped)")
  if #ev == 2 then
    T.eq(ev[1], t0, "applied at the step")
    print(string.format("%-50s %.3g", "brake: stop time", math.abs(ev[2] - ts) / ts))
    T.check(math.abs(ev[2] - ts) / ts < 1e-8, "stops at t0 + w1 J / (tk - tq)")
    local i = row_after(res, ev[2])
    T.eq(T.column(res, "brake.mode")[i], 0, "stuck after")
    T.near(T.column(res, "brake.tau")[i], tq, 1e-9, "holds the push")
  end
  close(res, "shaft.w", function(t)
    if t < t0 then return w0 + tq * t / J end
    if t < ts then return w1 - (tk - tq) / J * (t - t0) end
    return 0
  end, w1, "brake: speed")
  local n = res:nrows()
  T.near(T.column(res, "brake.P_loss")[n], 0, 1e-12, "no loss at rest")
end

os.exit(T.done())
