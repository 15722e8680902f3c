# bench/chain.gp - charts of the coupled models' CSVs: ns per evaluation and
# copy (crab or cell) of lied and of the flat reference over n (log x), and the
# ratios.
#   gnuplot -e "chart='pipe'; pipe='bench/results/pipe-vm.csv'; out='x.png'" bench/chain.gp
# chart: pipe (bench/pipe's CSV in `pipe`) | crab_chain (bench/chain's CSV in
# `chain`) | ratio (both); machine: a subtitle.
if (!exists("chart")) chart = 'pipe'
if (!exists("pipe")) pipe = 'bench/results/pipe-vm.csv'
if (!exists("chain")) chain = 'bench/results/chain-vm.csv'
if (!exists("out")) out = 'chain-'.chart.'.png'
if (!exists("machine")) machine = ''

set terminal pngcairo size 900,620 enhanced font 'sans,11'
set output out
set datafile separator ','
set datafile columnheaders
set datafile missing ''
set key top left box opaque
set grid xtics ytics mytics lc rgb '#dddddd'
lbl(n) = n >= 1048576 ? sprintf('%.0fM', n/1048576) : n >= 1024 ? sprintf('%.0fk', n/1024) : sprintf('%.0f', n)
set logscale x 4
tics = ''
do for [k=2:11] { tics = tics.sprintf('"%s" %.0f, ', lbl(4**k), 4**k) }
eval('set xtics ('.tics[1:strlen(tics)-2].')')
set xrange [12:5.5e6]
set style data linespoints
set style line 1 lc rgb '#c0392b' lw 2 pt 7 ps 1.1
set style line 2 lc rgb '#2471a3' lw 2 pt 5 ps 1.1
set style line 3 lc rgb '#7d3c98' lw 2 pt 9 ps 1.1
set style line 4 lc rgb '#d68910' lw 2 pt 11 ps 1.1
set style line 9 lc rgb '#888888' lw 1.5 dt 2
sub = (machine ne '') ? "\n{/*0.8 ".machine."}" : ''

if (chart eq 'pipe') {
  set title 'Discretised pipe (examples/pipe.lua): time per evaluation per cell (RK4, no output)'.sub
  set xlabel 'cells n   (k = 1024, M = 1024^2)'
  set logscale y 10
  set ylabel 'ns per evaluation per cell'
  plot pipe using 'n':'lied_ns_per_eval_cell' ls 1 title 'lied', \
       ''   using 'n':'flat_ns_per_eval_cell' ls 2 title 'flat C reference (bench/flat\_pipe)', \
       ''   using 'n':(3*column('flat_ns_per_eval_cell')) ls 9 with lines title '3 x flat (target)'
}

if (chart eq 'crab_chain') {
  set title 'Crab chain (examples/crab\_chain.lua): time per evaluation per crab (RK4, no output)'.sub
  set xlabel 'crane crabs n   (k = 1024, M = 1024^2)'
  set logscale y 10
  set ylabel 'ns per evaluation per crab'
  plot chain using 'n':'chain_ns_per_eval_crab' ls 1 title 'lied', \
       ''    using 'n':'flat_chain_ns_per_eval_crab' ls 2 title 'flat C reference (bench/flat\_crabchain)', \
       ''    using 'n':(3*column('flat_chain_ns_per_eval_crab')) ls 9 with lines title '3 x flat (target)'
}

if (chart eq 'ratio') {
  set title 'lied / flat reference, per evaluation'.sub
  set xlabel 'copies n (cells, crabs)   (k = 1024, M = 1024^2)'
  set ylabel 'ratio'
  set yrange [0:*]
  plot pipe  using 'n':(column('lied_ns_per_eval_cell')/column('flat_ns_per_eval_cell')) ls 1 title 'pipe', \
       chain using 'n':(column('chain_ns_per_eval_crab')/column('flat_chain_ns_per_eval_crab')) ls 3 title 'crab chain', \
       [16:4194304] 3 ls 9 with lines title '3 (target)'
}
