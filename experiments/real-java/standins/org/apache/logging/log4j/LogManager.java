package org.apache.logging.log4j;
/** Stand-in for log4j's LogManager: one logger per class, one level for all. */
public class LogManager {
    public static Logger getLogger(Class<?> c) { return new Logger(c.getSimpleName()); }
    public static Logger getRootLogger() { return new Logger("root"); }
    public static void setLevel(Level l) { Logger.level = l; }
}
