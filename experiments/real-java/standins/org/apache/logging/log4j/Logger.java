package org.apache.logging.log4j;
/** Stand-in for log4j's Logger: vermouth's messages to stderr, with {} filled in order; only what vermouth calls. */
public class Logger {
    static Level level = Level.INFO;
    private final String name;
    public String getName() { return name; }
    Logger(String name) { this.name = name; }
    private void log(Level l, String msg, Object... args) {
        if (l.ordinal() > level.ordinal()) return;
        StringBuilder sb = new StringBuilder();
        int a = 0, i = 0;
        while (i < msg.length()) {
            if (msg.startsWith("{}", i) && a < args.length) { sb.append(args[a++]); i += 2; }
            else sb.append(msg.charAt(i++));
        }
        System.err.println("[" + l + " " + name + "] " + sb);
        if (a < args.length && args[args.length - 1] instanceof Throwable) ((Throwable) args[args.length - 1]).printStackTrace();
    }
    public void fatal(String m, Object... a) { log(Level.FATAL, m, a); }
    public void error(String m, Object... a) { log(Level.ERROR, m, a); }
    public void warn(String m, Object... a) { log(Level.WARN, m, a); }
    public void info(String m, Object... a) { log(Level.INFO, m, a); }
    public void debug(String m, Object... a) { log(Level.DEBUG, m, a); }
    public void trace(String m, Object... a) { log(Level.TRACE, m, a); }
}
