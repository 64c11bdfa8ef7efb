# SPDX-License-Identifier: GPL-2.0
# The benchmark's chart: PRAMFS's speed over each other's, per key figure.
# gnuplot -e "out='ratios.png'; dat='ratios.dat'" ratios.gp
set terminal png size 1100,520 font ",10" noenhanced
set output out
set title "PRAMFS speed ratios (above 1: PRAMFS faster)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -30 left nomirror
set ytics nomirror
set grid ytics
set yrange [0:*]
set key top right
set datafile missing "NaN"
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 front
set bmargin 7
set rmargin 10
plot dat using 2:xtic(1) title columnheader(2), \
     '' using 3 title columnheader(3), \
     '' using 4 title columnheader(4), \
     '' using 5 title columnheader(5)
