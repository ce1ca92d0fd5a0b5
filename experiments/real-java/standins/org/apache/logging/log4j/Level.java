package org.apache.logging.log4j;
/** Stand-in for log4j's Level: only the names vermouth's --log option accepts. */
public enum Level { OFF, FATAL, ERROR, WARN, INFO, DEBUG, TRACE, ALL }
