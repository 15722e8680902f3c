# bench/scaling.gp - charts of bench/scaling's CSV (log-log over the number of
# crabs, the equation count 189 n + 17 of the paper on the top axis).
#   gnuplot -e "csv='bench/results/scaling-vm.csv'; out='x.png'; chart='memory'" bench/scaling.gp
# chart: memory | instantiation | evaluation | ratio; machine: a subtitle.
if (!exists("csv")) csv = 'bench/results/scaling-this-machine.csv'
# optional: a second lied run set drawn on the evaluation and ratio charts
# (bench/scaling --overlay FILE --overlay-title TEXT)
if (!exists("overlay")) { overlay = csv; overlay_title = ''; ols = 1 } else { ols = 3 }
if (!exists("overlay_ratios")) { overlay_ratios = overlay }
if (!exists("chart")) chart = 'memory'
if (!exists("out")) out = 'scaling-'.chart.'.png'
if (!exists("machine")) machine = ''

set terminal pngcairo size 900,620 enhanced font 'sans,11'
set output out
set datafile separator ','
set datafile columnheaders
set datafile missing ''
set key top left box opaque
set grid xtics ytics mytics lc rgb '#dddddd'
# x is u = log10(n) on a linear axis (gnuplot cannot link a second axis to a
# log-scaled one); tics at n = 4^k, labelled 1, 4, ..., 1k, 4k, ..., 1M, 4M
lbl(n) = n >= 1048576 ? sprintf('%.0fM', n/1048576) : n >= 1024 ? sprintf('%.0fk', n/1024) : sprintf('%.0f', n)
tics = ''
stats csv using 'n' nooutput
kmax = ceil(log(STATS_max)/log(4) + 1e-9)
do for [k=0:kmax] { tics = tics.sprintf('"%s" %.12g, ', lbl(4**k), log10(4**k)) }
eval('set xtics ('.tics[1:strlen(tics)-2].')')
set mxtics 2
set xlabel 'crane crabs n   (k = 1024, M = 1024^2)'
set xrange [-0.15:*]
set offsets 0, 0.15, 0, 0
set rmargin 5
# the equation count as a second x axis, as in the paper's Figures 6 to 8
set link x2 via log10(189*10**x + 17) inverse log10((10**x - 17)/189)
tics = ''
do for [k=2:10] { tics = tics.sprintf('"10^{%d}" %d, ', k, k) }
eval('set x2tics ('.tics[1:strlen(tics)-2].') nomirror')
set x2label 'equations (189 n + 17)'
set xtics nomirror
set style data linespoints
set style line 1 lc rgb '#c0392b' lw 2 pt 7 ps 1.1
set style line 2 lc rgb '#2471a3' lw 2 pt 5 ps 1.1
set style line 3 lc rgb '#7d3c98' lw 2 pt 9 ps 1.1
set style line 9 lc rgb '#888888' lw 1.5 dt 2
set style line 8 lc rgb '#27ae60' lw 1.5 dt 4

ok(v) = (v == v) ? v : NaN
sub = (machine ne '') ? "\n{/*0.8 ".machine."}" : ''

if (chart eq 'memory') {
  set title 'Peak resident memory of the whole process'.sub
  set key bottom right
  set logscale y 10
  set format y '10^{%T}'
  set ylabel 'bytes (maximum resident set size)'
  plot csv using (log10(column('n'))):'lied_rss_bytes' ls 1 title 'lied', \
       ''  using (log10(column('n'))):'flat_rss_bytes' ls 2 title 'flat C reference', \
       [0:*] 2048*10**x ls 9 title '2 KiB per crab (target)', \
       [0:*] 1024*10**x ls 8 title '1 KiB per crab (aim)'
}

if (chart eq 'instantiation') {
  set title 'Instantiation time (declare, instantiate, schedule)'.sub
  set logscale y 10
  set format y '10^{%T}'
  set ylabel 'seconds'
  plot csv using (log10(column('n'))):'lied_inst_sched_s' ls 1 title 'lied: instantiate + schedule (--stats)', \
       ''  using (log10(column('n'))):'lied_setup_s' ls 3 title 'lied: whole process minus run (incl. declare, start, exit)', \
       [0:*] (189*10**x + 17)/1e6 ls 9 title 'zimsim: ~1 s per million equations'
}

if (chart eq 'evaluation') {
  set title 'Time per model evaluation per crab (RK4, no output)'.sub
  set logscale y 10
  set ylabel 'ns per evaluation per crab'
  set key top right
  plot csv using (log10(column('n'))):'lied_ns_per_eval_crab' ls 1 title 'lied', \
       ''  using (log10(column('n'))):'flat_ns_per_eval_crab' ls 2 title 'flat C reference', \
       ''  using (log10(column('n'))):(3*column('flat_ns_per_eval_crab')) ls 9 with lines title '3 x flat (target)', \
       ''  using (log10(column('n'))):(1.5*column('flat_ns_per_eval_crab')) ls 8 with lines title '1.5 x flat (aim)', \
       overlay using (log10(column('n'))):'lied_ns_per_eval_crab' ls ols title overlay_title
}

if (chart eq 'ratio') {
  set title 'Evaluation time ratio lied / flat'.sub
  set ylabel 'lied / flat'
  set yrange [0:*]
  set key top right
  plot csv using (log10(column('n'))):'ratio' ls 1 title 'lied / flat', \
       overlay_ratios using (log10(column('n'))):'ratio' ls ols title overlay_title, \
       [0:*] 3 ls 9 title 'target 3 (issue 5; design.md: 2)', \
       [0:*] 1.5 ls 8 title 'aim 1.5'
}
