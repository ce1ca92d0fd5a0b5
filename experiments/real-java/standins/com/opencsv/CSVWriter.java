package com.opencsv;
import java.io.*;
/** Stand-in for opencsv's CSVWriter as vermouth uses it: no quoting, its separator and line end. */
public class CSVWriter implements Closeable, Flushable {
    private final PrintWriter out; private final char sep; private final String end;
    public CSVWriter(Writer w, char sep, char quote, char escape, String end) { out = new PrintWriter(w); this.sep = sep; this.end = end; }
    public void writeNext(String[] row) { out.print(String.join(String.valueOf(sep), row)); out.print(end); out.flush(); }
    public void flush() { out.flush(); }
    public void close() { out.close(); }
}
