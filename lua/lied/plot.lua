-- lied.plot: plots of results through gnuplot. A file (png, svg, pdf) when
-- opts.file is given; a window when a display and an interactive gnuplot
-- terminal exist; otherwise a text plot in the terminal.
local plot = {}

-- Quote a string for gnuplot: single quotes (no escapes inside, so a
-- backslash is literal), a quote is doubled, line breaks and other control
-- characters (NUL included) become spaces: the string cannot end the
-- command it is in (tests/cli/test_safety.sh).
local function gq(s)
  s = tostring(s):gsub("%c", " "):gsub("'", "''")
  return "'" .. s .. "'"
end
plot.quote = gq

plot.install_hint = "gnuplot is not installed: install it with 'sudo apt-get install gnuplot' "
  .. "(Debian/Ubuntu; gnuplot-nox without windows), 'sudo dnf install gnuplot' or "
  .. "'brew install gnuplot'; meanwhile save(\"run.csv\") keeps the data"

local terminals -- set of gnuplot terminal names, once per session
local function gnuplot_terminals()
  if terminals then return terminals end
  local f = io.popen("gnuplot -e 'print GPVAL_TERMINALS' 2>&1 </dev/null")
  local out = f and f:read("a") or ""
  local ok = f and f:close()
  if not ok or out:find("not found") then return nil end
  terminals = {}
  for name in out:gmatch("%S+") do terminals[name] = true end
  return terminals
end

function plot.available()
  return gnuplot_terminals() ~= nil
end

-- Size of the terminal for text plots: opts, else `stty size`, else 100x30.
local function text_size(opts)
  local w, h = opts.width, opts.height
  for k, v in pairs { width = w, height = h } do
    if v ~= nil and (math.type(v) == nil or v ~= math.floor(v) or v < 10 or v > 1000) then
      error(string.format("plot: %s must be a whole number of characters from 10 to 1000, got %s", k,
        tostring(v)), 0)
    end
  end
  w, h = w and math.tointeger(w), h and math.tointeger(h)
  if not (w and h) then
    local f = io.popen("stty size 2>/dev/null")
    local s = f and f:read("a") or ""
    if f then f:close() end
    local r, c = s:match("(%d+)%s+(%d+)")
    w = w or (c and math.max(40, tonumber(c) - 1)) or 100
    h = h or (r and math.max(15, math.min(40, tonumber(r) - 4))) or 30
  end
  return w, h
end

local file_terms = {
  png = { "pngcairo", "png" }, svg = { "svg" }, pdf = { "pdfcairo" },
}
local file_size = { pngcairo = "size 900,600", png = "size 900,600", svg = "size 900,600",
                    pdfcairo = "size 9in,6in" }
local windows = { "qt", "wxt", "x11" }

-- plot.writable(file): true, or nil and a message when file cannot be
-- written (gnuplot writes the image to standard output when it cannot open
-- the file: check first). The file is left as it was.
function plot.writable(file)
  local existed = io.open(file, "rb")
  if existed then existed:close() end
  local f, why = io.open(file, "ab")
  if not f then
    return nil, "cannot write the plot file " .. tostring(file) .. ": " .. tostring(why):gsub("^.*: ", "")
  end
  f:close()
  if not existed then os.remove(file) end
  return true
end

-- plot.check_file(file): the terminals that write it and the extension, or
-- nil, a message and "usage" when its name is refused (control characters,
-- an extension other than .png, .svg, .pdf) or "model" when it cannot be
-- written; lied.main checks before it simulates.
function plot.check_file(file)
  if tostring(file):find("%c") then
    return nil, "plot file name must not contain control characters (line breaks, tabs): "
      .. string.format("%q", tostring(file)), "usage"
  end
  local ext = tostring(file):match("%.(%w+)$")
  local cands = file_terms[(ext or ""):lower()]
  if not cands then
    return nil, "plot file must end in .png, .svg or .pdf: " .. tostring(file), "usage"
  end
  local ok, why = plot.writable(file)
  if not ok then return nil, why, "model" end
  return cands, ext
end

-- The `set terminal` line for opts; nil, message when impossible.
local function terminal(opts, terms)
  if opts.file then
    local cands, ext = plot.check_file(opts.file)
    if not cands then return nil, ext end
    for _, t in ipairs(cands) do
      if terms[t] then return "set terminal " .. t .. " noenhanced " .. file_size[t], "file" end
    end
    return nil, "this gnuplot cannot write ." .. ext .. " files (no " .. cands[1] .. " terminal)"
  end
  if not opts.text and (os.getenv("DISPLAY") or os.getenv("WAYLAND_DISPLAY")) then
    for _, t in ipairs(windows) do
      if terms[t] then return "set terminal " .. t .. " noenhanced persist", "window" end
    end
  end
  local w, h = text_size(opts)
  local tty = os.execute("test -t 1")
  -- colour on a terminal unless NO_COLOR is set (no-color.org) or opts.mono
  local no_color = os.getenv("NO_COLOR")
  local colour = (tty == true or tty == 0) and not opts.mono and not (no_color and no_color ~= "")
    and " ansi" or " mono"
  return string.format("set terminal dumb noenhanced size %d,%d%s", w, h, colour), "text"
end

local function num(v)
  if v ~= v then return "NaN" end
  return string.format("%.17g", v)
end

-- Distinct line colours (a colour per run in overlays, per variable otherwise).
local palette = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
                  "#17becf", "#7f7f7f", "#bcbd22" }
plot.palette = palette

-- The gnuplot commands of one panel: its labels and axes, its plot line.
-- series (of the whole figure) are numbered from first.
local function panel_commands(s, p, first, mode)
  s[#s + 1] = p.title and ("set title " .. gq(p.title)) or "unset title"
  s[#s + 1] = p.xlabel and ("set xlabel " .. gq(p.xlabel)) or "unset xlabel"
  s[#s + 1] = p.ylabel and ("set ylabel " .. gq(p.ylabel)) or "unset ylabel"
  local two = false
  for _, ser in ipairs(p.series) do two = two or ser.axis == 2 end
  if two then
    s[#s + 1] = "set ytics nomirror"
    s[#s + 1] = "set y2tics"
    s[#s + 1] = p.y2label and ("set y2label " .. gq(p.y2label)) or "unset y2label"
  else
    s[#s + 1] = "set ytics mirror"
    s[#s + 1] = "unset y2tics"
    s[#s + 1] = "unset y2label"
  end
  s[#s + 1] = p.logy and "set logscale y" or "unset logscale y"
  s[#s + 1] = p.yrange and string.format("set yrange [%s:%s]", num(p.yrange[1]), num(p.yrange[2]))
    or "set autoscale y"
  if mode ~= "text" then s[#s + 1] = "set grid" end
  -- below the plot: in a text plot a key inside the frame hides the curves
  s[#s + 1] = "set key below"
  local parts = {}
  for i, ser in ipairs(p.series) do
    local style = ""
    if ser.rgb then style = string.format(" lc rgb '%s'", ser.rgb)
    elseif ser.color then style = string.format(" lc %d", ser.color) end
    if ser.dash then style = style .. string.format(" dt %d", ser.dash) end
    parts[#parts + 1] = string.format("$d%d using 1:2 axes x1y%d with lines%s title %s", first + i - 1,
      ser.axis == 2 and 2 or 1, style, gq(ser.label or ""))
  end
  s[#s + 1] = "plot " .. table.concat(parts, ", ")
end

-- plot.draw(series, opts): series is a list of {x = {...}, y = {...}, label,
-- color or rgb, dash, axis (1 or 2: the left or the right y axis)}; opts:
-- file, text (force a text plot), title, xlabel, ylabel, y2label, logy (a
-- logarithmic y axis), yrange ({lo, hi}: the y axis' range; autoscaled
-- without), width, height, dry (return gnuplot's script instead of running it). plot.draw{panels = {{series = ..., title, xlabel, ylabel,
-- y2label, logy, yrange}, ...}, layout = {rows, cols}} draws several panels. Returns true
-- and where it went, or nil and a message.
-- The gnuplot script's lines of data: one inline block ($d1, $d2, ...) per
-- series of every panel, in order.
local function data_blocks(panels)
  local s, k = {}, 0
  for _, p in ipairs(panels) do
    for _, ser in ipairs(p.series) do
      k = k + 1
      s[#s + 1] = string.format("$d%d << EOD", k)
      local xs, ys = ser.x, ser.y
      for r = 1, math.min(#xs, #ys) do s[#s + 1] = num(xs[r]) .. " " .. num(ys[r]) end
      s[#s + 1] = "EOD"
    end
  end
  return s
end

function plot.draw(series, opts)
  opts = opts or {}
  local panels = opts.panels or { { series = series, title = opts.title, xlabel = opts.xlabel,
                                    ylabel = opts.ylabel, y2label = opts.y2label, logy = opts.logy,
                                    yrange = opts.yrange } }
  local rows, cols = 1, 1
  if opts.panels then
    rows, cols = opts.layout and opts.layout[1] or #panels, opts.layout and opts.layout[2] or 1
  end
  local n = 0
  for _, p in ipairs(panels) do n = n + #p.series end
  if n == 0 then return nil, "nothing to plot" end
  local terms = gnuplot_terminals()
  if not terms then return nil, plot.install_hint end
  local term, mode = terminal(opts, terms)
  if not term then return nil, mode end
  if mode == "file" and (rows > 1 or cols > 1) then
    -- a panel keeps about the size of a single plot's height share
    local w, h = 900 * math.min(cols, 2), rows == 1 and 600 or (330 * rows + 60)
    term = term:gsub("size %d+,%d+", string.format("size %d,%d", w, h))
    if term:find("pdfcairo") then term = term:gsub("size [%d%.]+in,[%d%.]+in", string.format("size %gin,%gin", w / 100, h / 100)) end
  end
  -- the file must be writable before gnuplot runs: a failed `set output`
  -- would send the image to standard output
  if opts.file then
    local f, err = io.open(opts.file, "wb")
    if not f then return nil, "cannot write the plot: " .. tostring(err) end
    f:close()
  end
  local s = data_blocks(panels)
  s[#s + 1] = term
  if opts.file then s[#s + 1] = "set output " .. gq(opts.file) end
  local multi = #panels > 1 or rows > 1 or cols > 1
  if multi then
    s[#s + 1] = string.format("set multiplot layout %d,%d%s", rows, cols,
      opts.title and (" title " .. gq(opts.title)) or "")
  end
  local first = 1
  for _, p in ipairs(panels) do
    panel_commands(s, p, first, mode)
    first = first + #p.series
  end
  if multi then s[#s + 1] = "unset multiplot" end
  if opts.file then s[#s + 1] = "unset output" end
  if opts.dry then -- the script only (tests)
    if opts.file then os.remove(opts.file) end
    return table.concat(s, "\n"), mode
  end
  io.stdout:flush()
  local f = io.popen("gnuplot" .. (mode == "window" and " -persist" or ""), "w")
  if not f then return nil, "cannot start gnuplot" end
  f:write(table.concat(s, "\n"), "\n")
  local ok = f:close()
  if not ok then
    if opts.file then os.remove(opts.file) end
    return nil, "gnuplot failed (see its message above)"
  end
  return true, mode
end

-- "name [unit]", or the name alone without a unit.
function plot.label(name, unit)
  if unit and unit ~= "" then return name .. " [" .. unit .. "]" end
  return name
end

-- The y axis label: the shared unit of the series, if they have one.
function plot.ylabel(names, units)
  if #names == 1 then return plot.label(names[1], units[names[1]]) end
  local u
  for _, n in ipairs(names) do
    local nu = units[n] or ""
    if u == nil then u = nu elseif u ~= nu then return nil end
  end
  if u and u ~= "" then return "[" .. u .. "]" end
  return nil
end

-- ---- figures of results: panels, a second axis, display units, overlays ----

local U = require "lied.units"

-- A list of names from a string or a list.
local function names_of(v)
  if v == nil then return {} end
  if type(v) == "string" then return { v } end
  local l = {}
  for i, n in ipairs(v) do l[i] = n end
  return l
end

-- The panels a request asks for: panels = {{"a", "b", y2 = {"c"}}, ...} or
-- one panel of the request's own names (and y2).
local function request_panels(req, default)
  if req.panels ~= nil then
    if type(req.panels) ~= "table" or #req.panels == 0 then
      error("plot: panels must be a list of panels {\"a\", \"b\", y2 = {\"c\"}}", 0)
    end
    local ps = {}
    for i, p in ipairs(req.panels) do
      if type(p) == "string" then p = { p } end
      if type(p) ~= "table" then error(string.format("plot: panel %d must be a list of names", i), 0) end
      ps[i] = { y = names_of(p.y or p), y2 = names_of(p.y2), title = p.title, ylabel = p.ylabel,
                y2label = p.y2label }
      for kk in pairs(p) do
        if math.type(kk) ~= "integer" and kk ~= "y" and kk ~= "y2" and kk ~= "title" and kk ~= "ylabel" and kk ~= "y2label" then
          error(string.format("plot: panel %d: unknown field '%s' (y, y2, title, ylabel, y2label)", i, tostring(kk)), 0)
        end
      end
    end
    return ps
  end
  local y = names_of(req.y or req)
  if #y == 0 and req.y2 == nil then y = default() end
  return { { y = y, y2 = names_of(req.y2), ylabel = req.ylabel, y2label = req.y2label } }
end

-- The layout {rows, cols} of n panels.
local function layout_of(req, n)
  local l = req.layout
  if l == nil then return { n, 1 } end
  if type(l) ~= "table" or math.type(l[1]) ~= "integer" or math.type(l[2]) ~= "integer"
      or l[1] < 1 or l[2] < 1 or l[1] > 16 or l[2] > 16 then
    error("plot: layout must be {rows, columns} (whole numbers from 1 to 16)", 0)
  end
  if l[1] * l[2] < n then
    error(string.format("plot: layout {%d, %d} has room for %d panels, not %d", l[1], l[2], l[1] * l[2], n), 0)
  end
  return l
end

-- The axis label of series in display units: the name for one, the shared
-- unit for several.
local function axis_label(list)
  if #list == 0 then return nil end
  if #list == 1 then return plot.label(list[1].name, list[1].unit) end
  local u = list[1].unit
  for _, e in ipairs(list) do if e.unit ~= u then return nil end end
  return u and u ~= "" and ("[" .. u .. "]") or nil
end

-- plot.figure(runs, req, column): runs is a list of {result, label}; req:
-- names (or y), y2, panels, layout, x, units, title, xlabel, ylabel,
-- y2label, file, text, width, height (docs/repl.md); column(result, name,
-- label) the values of a name (a recorded variable or an expression) or an
-- error. Overlaid runs get a colour each and their labels in the legend.
function plot.figure(runs, req, column)
  local first = runs[1][1]
  local panels = request_panels(req, function() return first:names() end)
  local layout = layout_of(req, #panels)
  if req.units ~= nil and req.units ~= false and type(req.units) ~= "table" then
    error("plot: units must be a table {name or unit = display unit} or false (SI)", 0)
  end
  local xname, xasked = U.split(req.x or "time")
  local si_of = first:units()
  local xsi = xname == "time" and "s" or si_of[xname]
  -- time stays in s unless asked ("time:min", units = {time = "h"})
  local xf, xunit = U.converter(xsi, U.pick(xname, xsi, xasked, req.units, U.shown(first)), xname)
  local overlay = #runs > 1
  local out = {}
  for pi_, p in ipairs(panels) do
    local ser, axes = {}, { {}, {} }
    local nvars = #p.y + #p.y2
    local v = 0
    for axis, list in ipairs { p.y, p.y2 } do
      for _, raw in ipairs(list) do
        v = v + 1
        local n, asked = U.split(raw)
        local si = si_of[n]
        local want = U.pick(n, si, asked, req.units, U.shown(first))
        local f, du = U.converter(si, want, n)
        axes[axis][#axes[axis] + 1] = { name = n, unit = du }
        for r, run in ipairs(runs) do
          local res, label = run[1], run[2]
          local xs = U.apply(xf, column(res, xname, label))
          local ys = U.apply(f, column(res, n, label))
          local l = plot.label(n, du)
          if overlay then l = l .. " (" .. label .. ")" end -- the run: its swept values
          local e = { x = xs, y = ys, label = l, axis = axis }
          if overlay then
            e.rgb, e.dash = palette[(r - 1) % #palette + 1], nvars > 1 and v or nil
          elseif nvars > 1 then
            e.rgb = palette[(v - 1) % #palette + 1]
          end
          ser[#ser + 1] = e
        end
      end
    end
    out[pi_] = { series = ser, title = p.title,
                 xlabel = (pi_ == #panels or layout[2] > 1) and (req.xlabel or plot.label(xname, xunit)) or nil,
                 ylabel = p.ylabel or (#panels == 1 and req.ylabel) or axis_label(axes[1]),
                 y2label = p.y2label or (#panels == 1 and req.y2label) or axis_label(axes[2]) }
  end
  local o = { file = req.file, text = req.text, width = req.width, height = req.height, title = req.title, dry = req.dry,
              layout = layout }
  if #panels == 1 then
    local p = out[1]
    o.xlabel, o.ylabel, o.y2label = p.xlabel, p.ylabel, p.y2label
    return plot.draw(p.series, o)
  end
  o.panels = out
  return plot.draw(nil, o)
end

-- plot.result(result, names, opts): names is a list of recorded variables
-- (default: all; "name:unit" for a display unit); opts as for plot.figure
-- (x, y2, panels, layout, units, title, file, ...).
function plot.result(result, names, opts)
  if names ~= nil and type(names) ~= "string" and type(names) ~= "table" then
    return nil, "the variables to plot must be a name, a list of names or {panels = ...}, got " ..
      type(names)
  end
  opts = opts or {}
  local req = {}
  for k, v in pairs(opts) do req[k] = v end
  if type(names) == "string" then names = { names } end
  for i, n in ipairs(names or {}) do req[i] = n end
  if names and #names == 0 and not req.panels and not req.y2 then return nil, "nothing to plot" end
  local function column(res, n)
    local c, err = res:column(n)
    if not c then error(err, 0) end
    return c
  end
  local ok, a, b = pcall(plot.figure, { { result, "result" } }, req, column)
  -- without figure's own "plot: ": the callers put it before (lied.plot, lied.main)
  if not ok then return nil, (tostring(a):gsub("^plot: ", "")) end
  return a, b
end

return plot
