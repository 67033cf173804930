/* Code included in the middle of a function: it assigns a global defined in
 * another source file. */
g = 40 + rank;
