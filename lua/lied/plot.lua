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

-- The `set terminal` line for opts; nil, message when impossible.
local function terminal(opts, terms)
  if opts.file then
    if tostring(opts.file):find("%c") then
      return nil, "plot file name must not contain control characters (line breaks, tabs): "
        .. string.format("%q", tostring(opts.file))
    end
    local ext = tostring(opts.file):match("%.(%w+)$")
    local cands = file_terms[(ext or ""):lower()]
    if not cands then return nil, "plot file must end in .png, .svg or .pdf: " .. tostring(opts.file) end
    local ok, why = plot.writable(opts.file)
    if not ok then return nil, why end
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

-- plot.draw(series, opts): series is a list of {x = {...}, y = {...}, label,
-- color, dash} (color and dash: gnuplot line colour and dash type numbers);
-- opts: file, text (force a text plot), title, xlabel, ylabel, width, height.
-- Returns true, or nil and a message.
function plot.draw(series, opts)
  opts = opts or {}
  if #series == 0 then return nil, "nothing to plot" end
  local terms = gnuplot_terminals()
  if not terms then return nil, plot.install_hint end
  local term, mode = terminal(opts, terms)
  if not term then return nil, mode end
  -- the file must be writable before gnuplot runs: a failed `set output`
  -- would send the image to standard output
  if opts.file then
    local f, err = io.open(opts.file, "wb")
    if not f then return nil, "cannot write the plot: " .. tostring(err) end
    f:close()
  end
  local s = {}
  for i, ser in ipairs(series) do
    s[#s + 1] = string.format("$d%d << EOD", i)
    local xs, ys = ser.x, ser.y
    for r = 1, math.min(#xs, #ys) do s[#s + 1] = num(xs[r]) .. " " .. num(ys[r]) end
    s[#s + 1] = "EOD"
  end
  s[#s + 1] = term
  if opts.file then s[#s + 1] = "set output " .. gq(opts.file) end
  if opts.title then s[#s + 1] = "set title " .. gq(opts.title) end
  if opts.xlabel then s[#s + 1] = "set xlabel " .. gq(opts.xlabel) end
  if opts.ylabel then s[#s + 1] = "set ylabel " .. gq(opts.ylabel) end
  if mode ~= "text" then s[#s + 1] = "set grid" end
  -- below the plot: in a text plot a key inside the frame hides the curves
  s[#s + 1] = "set key below"
  local parts = {}
  for i, ser in ipairs(series) do
    local style = ""
    if ser.color then style = string.format(" lc %d dt %d", ser.color, ser.dash or 1) end
    parts[#parts + 1] = string.format("$d%d using 1:2 with lines%s title %s", i, style,
      gq(ser.label or ""))
  end
  s[#s + 1] = "plot " .. table.concat(parts, ", ")
  if opts.file then s[#s + 1] = "unset output" end
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

-- plot.result(result, names, opts): names is a list of recorded variables
-- (default: all); opts.x a variable for x-y plots, and as for plot.draw.
function plot.result(result, names, opts)
  opts = opts or {}
  names = names or result:names()
  if type(names) == "string" then names = { names } end
  if #names == 0 then return nil, "nothing to plot" end
  local units = result:units()
  local xname = opts.x or "time"
  local xs, err = result:column(xname)
  if not xs then return nil, err end
  local series = {}
  for _, n in ipairs(names) do
    local c, cerr = result:column(n)
    if not c then return nil, cerr end
    series[#series + 1] = { x = xs, y = c, label = plot.label(n, units[n]) }
  end
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  o.xlabel = o.xlabel or plot.label(xname, xname == "time" and "s" or units[xname])
  o.ylabel = o.ylabel or plot.ylabel(names, units)
  return plot.draw(series, o)
end

return plot
