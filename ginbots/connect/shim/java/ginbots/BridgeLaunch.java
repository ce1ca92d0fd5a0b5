package ginbots;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/** Where the bridge command comes from: property, environment, the file next to the class, default. */
final class BridgeLaunch {
    /** The bridge module inside an unpacked archive, where a jar's entry looks for its folder. */
    private static final String BRIDGE_MODULE_FILE = "ginbots" + java.io.File.separator + "connect"
            + java.io.File.separator + "bridge.py";
    final List<String> command;
    final java.io.File directory;

    BridgeLaunch(List<String> command, java.io.File directory) {
        this.command = command;
        this.directory = directory;
    }

    static BridgeLaunch resolve() {
        java.io.File chosen = directoryOverride();
        String text = System.getProperty("ginbots.command", System.getenv("GINBOTS_COMMAND"));
        if (text != null && !text.trim().isEmpty()) {
            return new BridgeLaunch(split(text), chosen);
        }
        java.net.URL file = GinbotsPlayer.class.getResource("bridge.properties");  // a folder's or a jar's
        if (file != null) {
            java.util.Properties props = new java.util.Properties();
            try (java.io.InputStream in = file.openStream()) {
                props.load(in);
            } catch (IOException e) {
                throw new IllegalStateException("ginbots shim: cannot read " + file + ": " + e.getMessage());
            }
            String cmd = props.getProperty("command", "").trim();
            if (cmd.isEmpty()) {
                throw new IllegalStateException("ginbots shim: " + file + " has no command= line");
            }
            return new BridgeLaunch(split(cmd), chosen != null ? chosen
                    : bridgeDirectory(file, props.getProperty("directory", ".")));
        }
        return new BridgeLaunch(split("python3 -m ginbots.connect.bridge simple"), chosen);
    }

    /** -Dginbots.directory or GINBOTS_DIRECTORY: where the bridge starts, whatever else says. */
    private static java.io.File directoryOverride() {
        String dir = System.getProperty("ginbots.directory", System.getenv("GINBOTS_DIRECTORY"));
        return dir == null || dir.trim().isEmpty() ? null : new java.io.File(dir.trim());
    }

    /**
     * Where the bridge starts: bridge.properties' directory, relative to the class's folder. In a
     * jar there is no such folder, so the nearest folder around the jar (its own, then up to three
     * above) that holds an unpacked archive (MANIFEST.json and ginbots/connect/bridge.py) is used, and none
     * is an error rather than a bridge started somewhere that might hold another bot.
     */
    private static java.io.File bridgeDirectory(java.net.URL file, String directory) {
        java.io.File dir = new java.io.File(directory);
        if (dir.isAbsolute()) {
            return dir;
        }
        if ("file".equals(file.getProtocol())) {
            return new java.io.File(asFile(file).getParentFile(), directory);
        }
        java.io.File jar = null;
        try {
            java.net.URLConnection connection = file.openConnection();
            if (connection instanceof java.net.JarURLConnection) {
                jar = asFile(((java.net.JarURLConnection) connection).getJarFileURL());
            }
        } catch (IOException e) {
            jar = null;
        }
        java.io.File folder = jar == null ? null : jar.getAbsoluteFile().getParentFile();
        for (int up = 0; folder != null && up < 4; up++, folder = folder.getParentFile()) {
            if (new java.io.File(folder, BRIDGE_MODULE_FILE).isFile()
                    && new java.io.File(folder, "MANIFEST.json").isFile()) {
                return folder;
            }
        }
        throw new IllegalStateException("ginbots shim: the entry's bridge.properties is inside " + file
                + ", and no folder around it holds the unpacked archive (MANIFEST.json, ginbots/connect/bridge.py);"
                + " keep the jar in or below that folder, or set -Dginbots.directory=FOLDER (or GINBOTS_DIRECTORY)");
    }

    private static java.io.File asFile(java.net.URL url) {
        try {
            return new java.io.File(url.toURI());
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            throw new IllegalStateException("ginbots shim: " + url + " is not a local file: " + e.getMessage());
        }
    }

    private static List<String> split(String text) {
        return Arrays.asList(text.trim().split("\\s+"));
    }
}
