-- tests/kinks.lua: the harness of the kink tests (test_kinks.lua,
-- test_kinks_refrig.lua, test_kinks_undirected.lua, test_kinks_sensors.lua):
-- a model driven through its kinks by every adaptive solver at several
-- tolerances against an independent reference (docs/events.md, "Kinks").
-- The error measure is the solvers' weights over the run: max over the
-- output points and variables of |x - ref| / (tol (1 + max |ref|))
-- (rtol = atol = tol, the largest magnitude over the run: a global error).
--   local K = require "tests.kinks"
--   K.check(kind, built, opts, names, exact, kinks)   exact(t) -> {values} or nil
--   K.grid(ref, dt)                                   exact(t) of rows at (k - 1) dt
--   K.report()                                        the table of measured errors
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

local K = {}

K.have_cvode = pcall(function()
  lied.build(lied.model "C" { i = S.Integrator {}, c = S.Constant {}, connect = { { "c.y", "i.u" } } })
    :run { solver = "cvode", stop = 1, out = "none" }
end)
K.tols = { 1e-5, 1e-6, 1e-7, 1e-8 }
-- cvode's global error is 10x to 100x its tolerance on smooth problems too
-- (docs/solvers.md): its bound is that, not 10x
K.bound = { dopri45 = 10, esdirk23 = 10, cvode = 100 }
K.solvers = { "dopri45", "esdirk23" }
if K.have_cvode then K.solvers[#K.solvers + 1] = "cvode" end

local measured, kinds = {}, {}

-- The worst weighted error of a run against exact(t) -> {values} (nil off
-- the reference's times), over the output points (the first row of a time
-- that appears twice: an event).
function K.worst(res, names, exact, tol)
  local t = res:column("time")
  local cols, err, big = {}, {}, {}
  for k, n in ipairs(names) do cols[k], err[k], big[k] = res:column(n), 0, 0 end
  for i = 1, #t do
    if not (i > 1 and t[i] == t[i - 1]) then
      local x = exact(t[i])
      if x then
        for k = 1, #names do
          err[k] = math.max(err[k], math.abs(cols[k][i] - x[k]))
          big[k] = math.max(big[k], math.abs(x[k]))
        end
      end
    end
  end
  local w = 0
  for k = 1, #names do w = math.max(w, err[k] / (tol * (1 + big[k]))) end
  return w
end

-- exact(t) of the rows ref[k] at the times (k - 1) dt (nil off them)
function K.grid(ref, dt)
  return function(t)
    local k = math.floor(t / dt + 0.5) + 1
    if math.abs(t - (k - 1) * dt) < 1e-9 then return ref[k] end
  end
end

-- exact(t) from rows {t, x1, x2, ...} (nil off their times)
function K.rows(rows)
  local at = {}
  for _, r in ipairs(rows) do at[string.format("%.6f", r[1])] = { table.unpack(r, 2) } end
  return function(t) return at[string.format("%.6f", t)] end
end

-- Run `built` with every solver and tolerance against exact, asserting the
-- bound (K.bound, or bounds[solver] where given) and that the run located
-- `kinks` kinks at least (with kinks_max: at most that many). Returns the
-- statistics of the runs: stats[sv][tol]. opts are the runs' options, but
-- for opts.checked_tols: the tolerances where lied's assertions are on
-- (T.checked; a tolerance that only lengthens a run adds no path there).
function K.check(kind, built, opts, names, exact, kinks, kinks_max, bounds)
  measured[kind], kinds[#kinds + 1] = {}, kind
  local all = {}
  local tols = T.checked and opts.checked_tols or K.tols
  for _, sv in ipairs(K.solvers) do
    local row, steps = {}, {}
    all[sv] = {}
    for _, tol in ipairs(tols) do
      local o = { solver = sv, tol = tol, vars = table.concat(names, ",") }
      for k, v in pairs(opts) do
        if k ~= "checked_tols" then o[k] = v end
      end
      local res, st, msg = built:run(o)
      T.check(msg == nil, string.format("%s, %s at tol %g: %s", kind, sv, tol, tostring(msg)))
      local w = K.worst(res, names, exact, tol)
      row[#row + 1], steps[#steps + 1], all[sv][tol] = string.format("%.2g", w), st.steps, st
      local bound = bounds and bounds[sv] or K.bound[sv]
      T.check(w <= bound, string.format("%s, %s at tol %g: %.3g x tol (at most %g)", kind, sv, tol, w,
        bound))
      if sv == "cvode" then
        -- a model whose zero functions are all kinks: cvode's steps stand across them
        -- wherever they lie, so it does not evaluate them (docs/events.md, "cvode steps
        -- across kinks"); the bound above is what shows it handles them
        -- (at the start and at time events only)
        T.check(st.kinks == 0 and st.zero_evals <= 2 + 3 * st.events, string.format(
          "%s, cvode at tol %g: %d kinks, %d evaluations of the zero functions at %d events " ..
          "(none but at the start and the events: kinks only)", kind, tol, st.kinks, st.zero_evals,
          st.events))
      else
        T.check(st.kinks >= kinks, string.format("%s, %s at tol %g: %d kinks located (%d expected)",
          kind, sv, tol, st.kinks, kinks))
      end
      if kinks_max and sv ~= "cvode" then
        T.check(st.kinks <= kinks_max, string.format("%s, %s at tol %g: %d kinks located (at most %d)",
          kind, sv, tol, st.kinks, kinks_max))
      end
    end
    measured[kind][sv] = table.concat(row, " ") .. " (steps " .. table.concat(steps, " ") .. ")"
  end
  return all
end

-- the measured errors (x tol at the tolerances), for docs/events.md
function K.report()
  print(string.format("%-34s %-9s %s", "kink (model)", "solver",
    "x tol at " .. table.concat(K.tols, ", ")))
  for _, kind in ipairs(kinds) do
    for _, sv in ipairs(K.solvers) do print(string.format("%-34s %-9s %s", kind, sv, measured[kind][sv])) end
  end
end

return K
