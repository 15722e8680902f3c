-- lied.check: a differential check of lied's fast paths (lied run --check,
-- lied.check(model, opts); docs/repl.md, "Checking the fast paths").
--
-- The same model runs along its fast paths and along the plain ones, and
-- every recorded value (all variables by default) at every output point
-- must be the same bits: the fast paths promise that (docs/architecture.md).
-- The paths, each with the option that turns it off:
--   lanes      lane forms over groups of copies       (run lanes = false: copy by copy)
--   fuse       fused steps and steps in waves         (run fuse = false: whole-vector steps)
--   skew       skewed evaluation (and waves)          (build skew = false: level by level)
--   window     scheduling coupled arrays from a window (build window = false: the whole graph)
--   replicate  scheduling copies from copy 0's graph  (build replicate = false: every instance)
--   threads    several threads                       (run threads = 1)
-- The fast run forces the paths that size rules keep small models off
-- (build skew_any: skew and waves on short arrays; run threads_any: the
-- threads on any size), so a small example takes them too. Runs: "plain"
-- (every path off), "fast" (every path on), and "fast" with each path off in
-- turn; each is compared with "plain". When "fast" differs, the paths whose
-- removal makes it agree are the ones that differ (a bisection one path at
-- a time); a run without one path that differs (a combination the fast run
-- does not take, such as threads level by level) is reported as well.
-- Sparse linear sections are not such a path (their LU rounds otherwise
-- than the dense probe's): every run keeps them as the model has them.
local lied = require "lied"

local check = {}

check.paths = {
  { name = "lanes", run = { lanes = false }, doc = "lane forms (off: copy by copy)" },
  { name = "fuse", run = { fuse = false },
    doc = "fused steps and waves (off: whole-vector steps)" },
  { name = "skew", build = { skew = false },
    doc = "skewed evaluation and waves (off: level by level)" },
  { name = "window", build = { window = false },
    doc = "scheduling from a window (off: the whole graph)" },
  { name = "replicate", build = { replicate = false },
    doc = "replicated scheduling (off: every instance)" },
  { name = "threads", run = { threads = 1 }, doc = "several threads (off: one)" },
}

local function merge(...)
  local t = {}
  for _, s in ipairs { ... } do
    for k, v in pairs(s) do t[k] = v end
  end
  return t
end

-- The configurations: plain, fast, fast without each path.
local function configs(threads)
  local plain = { name = "plain", build = {}, run = { threads = 1 } }
  local fast = { name = "fast", build = { skew_any = true },
                 run = { threads = threads, threads_any = true } }
  for _, p in ipairs(check.paths) do plain.build = merge(plain.build, p.build or {})
    plain.run = merge(plain.run, p.run or {}) end
  local list = { plain, fast }
  for _, p in ipairs(check.paths) do
    list[#list + 1] = { name = "fast without " .. p.name, without = p.name,
                        build = merge(fast.build, p.build or {}),
                        run = merge(fast.run, p.run or {}) }
  end
  return list
end

-- The fast paths a run took, from the built model's info and the run's stats.
local function taken(info, stats)
  local t = {}
  local function add(cond, name) if cond then t[#t + 1] = name end end
  add((info.copies or 0) > 0, "replicate")
  add((info.window or 0) > 0, "window")
  add((info.skew_lag or 0) > 0, "skew")
  add(stats and (stats.waves or 0) > 0, "waves")
  add(stats and stats.fused and (stats.waves or 0) == 0, "fused")
  add(stats and stats.lanes, "lanes")
  add((info.par_runs or 0) > 0, "threads")
  return t
end
check.taken = taken

-- One configuration: its result, stats, message (a failed run), paths.
local function run_one(model, c, opts)
  local built = lied.build(model, opts.set, nil, c.build)
  local o = merge(opts.run, c.run)
  local res, stats, err = built:run(o)
  return { config = c, built = built, res = res, stats = stats, err = err,
           paths = taken(built:info(), stats) }
end

-- How run r differs from the plain run p: nil, or {what, ...}.
local function differ(r, p)
  if (r.err or "") ~= (p.err or "") then
    return { what = "message", a = p.err, b = r.err }
  end
  local d = r.res:first_difference(p.res)
  if not d then return nil end
  if d.what then return d end
  d.a, d.b = d.b, d.a -- a: plain, b: this run
  d.t = p.res:column(0)[d.row]
  return d
end

local function fmt(v) return string.format("%.17g", v) end

-- A difference in words: where, what, both values.
local function describe(d, built)
  if d.what == "message" then
    local function ended(m) return m and string.format("failed: %q", m) or "ran to its end" end
    return string.format("in how the runs end: plain %s, this run %s", ended(d.a), ended(d.b))
  elseif d.what == "names" then
    return "in the recorded names"
  elseif d.what == "rows" then
    return string.format("in the rows: plain recorded %d, this run %d", d.rows_b, d.rows_a)
  end
  if d.col == 0 then
    return string.format("in row %d's time: %s (plain) against %s", d.row, fmt(d.a), fmt(d.b))
  end
  local comp, var = built:component(d.name)
  if not comp then comp, var = d.name:match("^(.*)%.([^.]*)$") end
  return string.format("at t = %s: component %s, variable %s: %s (plain) against %s",
    fmt(d.t), comp or "?", var or d.name, fmt(d.a), fmt(d.b))
end
check.describe = describe

-- The paths the difference of the fast run goes with: each run without one
-- path that agrees with the plain one lost some of the fast run's paths
-- (without fuse: fused and lanes); the paths every such run lost. When
-- they lost none in common, the paths turned off in them.
local function culprits(runs, rep)
  local common, off = nil, {}
  for i = 3, #runs do
    if not rep[i].diff then
      off[#off + 1] = runs[i].config.without
      local kept, lost = {}, {}
      for _, p in ipairs(rep[i].paths) do kept[p] = true end
      for _, p in ipairs(rep[2].paths) do
        if not kept[p] and (not common or common[p]) then lost[p] = true end
      end
      common = lost
    end
  end
  local list = {}
  for _, p in ipairs(rep[2].paths) do if common and common[p] then list[#list + 1] = p end end
  return #list > 0 and list or off
end

-- lied.check(model, opts) -> report: opts holds run options (the model's
-- experiment under them; vars defaults to "*", every variable), set
-- (overrides) and threads (of the fast runs, default 3, or 2 on a machine of
-- 2 cores or fewer: a third thread on 2 cores waits for a processor at every
-- shared call, several times slower on a small model). The report:
-- ok (every run agrees with the plain one), failed (the plain run's failure, which
-- every run shares when ok: the runs compare only up to it; nil when it ran to its
-- end), runs (per configuration: name,
-- paths taken, difference or nil, interrupted: stopped by a signal), interrupted
-- (a run was: the report compares nothing, ok is false), fast_differs, culprits (the paths whose
-- removal makes the fast run agree), text (lines for a reader).
function check.run(model, opts)
  opts = opts or {}
  local run = merge(lied.ismodel(model) and model.experiment or {}, opts)
  run.set, run.threads = nil, nil
  run.vars = run.vars or "*"
  run.out, run.memory, run.progress = "none", true, false
  local o = { set = opts.set, run = run }
  local runs, report = {}, { ok = true, runs = {}, culprits = {} }
  for i, c in ipairs(configs(opts.threads or (lied.core.cores >= 3 and 3 or 2))) do
    runs[i] = run_one(model, c, o)
    if runs[i].stats and runs[i].stats.interrupted then break end -- Ctrl-C: no more runs
  end
  local plain = runs[1]
  for i, r in ipairs(runs) do
    local d = i > 1 and differ(r, plain) or nil
    report.runs[i] = { name = r.config.name, paths = r.paths, diff = d,
                       text = d and describe(d, r.built) or nil,
                       interrupted = r.stats and r.stats.interrupted or false }
    if d then report.ok = false end
  end
  for _, r in ipairs(report.runs) do
    if r.interrupted then report.interrupted, report.ok = true, false end
  end
  -- every run failing alike is agreement, but the runs compare only up to
  -- the failure: the report says so (it said every run gives the plain run's
  -- bits, exit 0, for a model whose every run failed at once)
  report.failed = not report.interrupted and plain.err ~= nil and tostring(plain.err) or nil
  report.fast_differs = not report.interrupted and report.runs[2].diff ~= nil or false
  if report.fast_differs then report.culprits = culprits(runs, report.runs) end
  report.text = check.text(report)
  return report
end

-- The report as lines.
function check.text(report)
  local out = {}
  local function line(...) out[#out + 1] = string.format(...) end
  for _, r in ipairs(report.runs) do
    local paths = #r.paths > 0 and table.concat(r.paths, ", ") or "no fast path"
    local verdict = r.diff and "DIFFERS" or (r.name == "plain" and "reference" or "same bits")
    line("%-22s %s: %s", r.name, verdict, paths)
    if r.diff then line("    first difference %s", r.text) end
  end
  if report.interrupted then
    line("lied check: interrupted (a run was stopped): nothing to compare")
  elseif report.ok and report.failed then
    line("lied check: every run gives the plain run's bits up to its failure, which every run " ..
      "shares: %s", report.failed)
  elseif report.ok then
    line("lied check: every run gives the plain run's bits")
  elseif report.fast_differs then
    line("lied check: the fast run differs from the plain one; %s",
      #report.culprits > 0 and ("it agrees without: " .. table.concat(report.culprits, ", ") ..
        " (the path that differs)") or "no single path off makes it agree (paths together)")
  else
    line("lied check: a run with a path off differs from the plain one (a combination of paths)")
  end
  return table.concat(out, "\n")
end

return check
