# bench/district/district.gp - chart of bench/district/run's explicit table
# (its CSV, district-explicit.csv): left, ns per component-evaluation of lied
# and of the flat reference over the houses n, with issue 41's targets (4x the
# flat program; 2x lied's cost at the smallest n); right, lied's set-up
# (build, processor time) against n log n through the row `ref` (default 1,
# the second: the smallest build takes milliseconds, too few to time well)
# and the 5 s target.
#   gnuplot -e "csv='bench/results/district-explicit.csv'; out='docs/district-scaling.png'" bench/district/district.gp
# machine: a subtitle (the load, the build).
if (!exists("csv")) csv = 'bench/results/district-explicit.csv'
if (!exists("out")) out = 'district-scaling.png'
if (!exists("machine")) machine = ''
if (!exists("ref")) ref = 1

set terminal pngcairo size 1200,560 enhanced font 'sans,11'
set output out
set datafile separator ','
set datafile columnheaders
set style data linespoints
set style line 1 lc rgb '#c0392b' lw 2 pt 7 ps 1.1
set style line 2 lc rgb '#2471a3' lw 2 pt 5 ps 1.1
set style line 8 lc rgb '#888888' lw 1.5 dt 3
set style line 9 lc rgb '#888888' lw 1.5 dt 2
set grid xtics ytics mytics lc rgb '#dddddd'
set logscale x 10
set xrange [50:200000]
set format x '10^{%T}'
set key top left box opaque
sub = (machine ne '') ? "\n{/*0.8 ".machine."}" : ''

# the first row's values, for the target lines
stats csv using 'n' every ::0::0 nooutput
n0 = STATS_min
stats csv using 'lied_ns_per_eval_component' every ::0::0 nooutput
c0 = STATS_min
stats csv using 'n' every ::ref::ref nooutput
n1 = STATS_min
stats csv using 'lied_build_cpu_s' every ::ref::ref nooutput
s1 = STATS_min

set multiplot layout 1,2 title 'District heating (examples/district\_heating.lua), RK4, one thread'.sub
set title 'time per component-evaluation'
set xlabel 'houses n   (14 n + 8 components)'
set logscale y 10
set ylabel 'ns per component-evaluation (processor time)'
plot csv using 'n':'lied_ns_per_eval_component' ls 1 title 'lied', \
     ''  using 'n':'flat_ns_per_eval_component' ls 2 title 'flat C reference (flat\_district)', \
     ''  using 'n':(4*column('flat_ns_per_eval_component')) ls 9 with lines title '4 x flat (target)', \
     2*c0 ls 8 with lines title sprintf('2 x lied at n = %d (target)', n0)

set title 'set-up: lied.core.build (hand over, instantiate, schedule)'
set ylabel 'processor time [s]'
set key top left
plot csv using 'n':'lied_build_cpu_s' ls 1 title 'lied', \
     s1*x*log(x)/(n1*log(n1)) ls 9 with lines title sprintf('n log n through n = %d', n1), \
     5 ls 8 with lines title '5 s (target at n = 100,000)'
unset multiplot
