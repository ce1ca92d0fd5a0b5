package org.apache.logging.log4j.core.config;
import org.apache.logging.log4j.*;
/** Stand-in for log4j's Configurator: vermouth sets every logger's level once. */
public class Configurator {
    public static void setAllLevels(String name, Level l) { LogManager.setLevel(l); }
}
