-- lied.impacts: how the dialectic form changes an impact (docs/dialectic.md,
-- "Impacts"). A body of mass m meets an ElastoGap (stiffness c, damping d)
-- at speed v0; gravity is left out over the contact's short time. In
-- contact the motion is linear, y' = A y with y = (s, v) (s the gap, v the
-- kinetic velocity):
--   rigid (T_D = 0):  s' = v, m v' = -c s - d v; in contact while s < 0
--                     and the force -c s - d v > 0, entered at s = 0;
--   dialectic:        m' = m + D T_D, D = c T_D + d,
--                     v' = a = (-c s - D v) / m', s' = v + T_D a; in contact
--                     while the anticipated penetration -s - T_D v > 0 and
--                     the predicted force -c s - D v > 0, entered where
--                     s = T_D v0 (the anticipated penetration reaches 0).
-- The contact ends where its first condition fails; after it v stays. The
-- restitution e = v_out / v0 follows from the matrix exponential of A and
-- that one root (bisection). It depends on the damping ratio
-- zeta = d / (2 sqrt(c m)) and on T_D omega0, omega0 = sqrt(c / m), only.
local impacts = {}

-- The eigenvalues of a 2 x 2 matrix A = {{a, b}, {c, d}} are h +- sqrt(disc).
local function half_trace_disc(A)
  local h = (A[1][1] + A[2][2]) / 2
  return h, h * h - (A[1][1] * A[2][2] - A[1][2] * A[2][1])
end

-- e^(A t) y for a 2 x 2 matrix A = {{a, b}, {c, d}}.
local function expm_apply(A, t, y)
  local a, b, c, d = A[1][1], A[1][2], A[2][1], A[2][2]
  local h, disc = half_trace_disc(A)
  local f, g -- e^(At) = e^(h t) (f I + g (A - h I))
  if disc < 0 then
    local w = math.sqrt(-disc)
    f, g = math.cos(w * t), math.sin(w * t) / w
  elseif disc > 0 then
    local q = math.sqrt(disc)
    f, g = math.cosh(q * t), math.sinh(q * t) / q
  else
    f, g = 1, t
  end
  local e = math.exp(h * t)
  local y1 = e * (f * y[1] + g * ((a - h) * y[1] + b * y[2]))
  local y2 = e * (f * y[2] + g * (c * y[1] + (d - h) * y[2]))
  return y1, y2
end

-- The restitution and the contact's duration of an impact at speed v0 > 0
-- (defaults 1 m/s; e does not depend on it).
function impacts.restitution(m, c, d, T_D, v0)
  v0 = v0 or 1
  local A, y0, inside
  if T_D > 0 then
    local D = c * T_D + d
    local mp = m + D * T_D
    A = { { -T_D * c / mp, 1 - T_D * D / mp }, { -c / mp, -D / mp } }
    y0 = { T_D * v0, -v0 }
    inside = function(s, v) return -s - T_D * v > 0 and -c * s - D * v > 0 end
  else
    A = { { 0, 1 }, { -c / m, -d / m } }
    y0 = { 0, -v0 }
    inside = function(s, v) return s < 0 and -c * s - d * v > 0 end
  end
  -- march to the first point outside, then bisect. The steps start at a
  -- hundredth of the fastest time scale and grow by 2 % a step up to a
  -- hundredth of the slow mode's time scale (or of the oscillation's
  -- period): an overdamped contact that creeps out over many fast time
  -- scales (T_D large: m' >> m) takes a few thousand steps, not millions.
  -- After 100 slow time constants the motion has come to rest in contact.
  local rate = math.max(math.sqrt(c / m), (d + c * T_D) / m, 1 / math.max(T_D, 1e-300))
  rate = math.min(rate, math.abs(A[1][1]) + math.abs(A[1][2]) + math.abs(A[2][1]) + math.abs(A[2][2]))
  local h, disc = half_trace_disc(A)
  local slow, w = math.abs(h), 0 -- the slow mode's rate, the oscillation's angular frequency
  if disc > 0 then
    local q = math.sqrt(disc)
    slow = math.min(math.abs(h - q), math.abs(h + q))
  elseif disc < 0 then
    w = math.sqrt(-disc)
  end
  local dt = 0.01 / rate
  local dt_max = 0.01 / math.max(slow, w, 1e-300)
  local t_rest = 100 / math.max(slow, 1e-300)
  local t0, t1 = 0, dt
  while true do
    local s, v = expm_apply(A, t1, y0)
    if not inside(s, v) then break end
    if t1 > t_rest then return 0, math.huge end -- stays in contact: it comes to rest
    dt = math.min(dt * 1.02, math.max(dt_max, dt))
    t0, t1 = t1, t1 + dt
  end
  for _ = 1, 200 do
    local tm = 0.5 * (t0 + t1)
    if tm <= t0 or tm >= t1 then break end
    local s, v = expm_apply(A, tm, y0)
    if inside(s, v) then t0 = tm else t1 = tm end
  end
  local _, v = expm_apply(A, t1, y0)
  return math.max(v, 0) / v0, t1
end

-- Warnings for the dialectic ElastoGaps of a spec list (lied.flatten) whose
-- T_D is not small against the contact's time scale 1 / omega0 with the
-- lightest body of the model (an estimate of the mass the contact stops):
-- where the restitution of an impact falls by more than 0.05 from the
-- rigid form's.
function impacts.warnings(specs)
  local lightest, gaps = math.huge, {}
  for _, s in ipairs(specs) do
    local cls = s.class and tostring(s.class) or ""
    if cls:find("^mechanics%.Body") then
      lightest = math.min(lightest, (s.params or {}).m or 1)
    elseif cls:find("^mechanics%.ElastoGap") and ((s.params or {}).T_D or 0) > 0 then
      gaps[#gaps + 1] = s
    end
  end
  local out = {}
  if lightest == math.huge then return out end
  for _, s in ipairs(gaps) do
    local p = s.params
    local c, d, T_D = p.c or 1e6, p.d or 0, p.T_D
    if type(c) == "number" and type(d) == "number" and type(T_D) == "number" and c > 0 then
      local w0 = math.sqrt(c / lightest)
      local er = impacts.restitution(lightest, c, d, 0)
      local ed = impacts.restitution(lightest, c, d, T_D)
      if er - ed > 0.05 then
        out[#out + 1] = string.format(
          "%s (ElastoGap, %s): T_D = %g s is large against the contact's time scale "
          .. "sqrt(m/c) = %.3g s (m = %g kg, the lightest body): an impact's restitution is %.2f "
          .. "in the dialectic form, %.2f in the rigid form (docs/dialectic.md, \"Impacts\")",
          s.name, s.where or "?", T_D, 1 / w0, lightest, ed, er)
      end
    end
  end
  return out
end

return impacts
