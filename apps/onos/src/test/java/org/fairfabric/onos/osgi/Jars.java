package org.fairfabric.onos.osgi;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** Reading and writing the jars the OSGi test installs. */
final class Jars {
    private Jars() {
    }

    /** The main manifest attributes, or null when the jar has no manifest or is no jar. */
    static Attributes manifest(Path jar) {
        try (JarFile f = new JarFile(jar.toFile())) {
            Manifest m = f.getManifest();
            return m == null ? null : m.getMainAttributes();
        } catch (IOException e) {
            return null;
        }
    }

    /** The packages (directories holding .class files) of a jar. */
    static Set<String> packages(Path jar) throws IOException {
        Set<String> out = new TreeSet<>();
        try (JarFile f = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.endsWith(".class") && name.contains("/")) {
                    out.add(name.substring(0, name.lastIndexOf('/')).replace('/', '.'));
                }
            }
        }
        return out;
    }

    /** Writes a jar with {@code headers} and the given entries (name -> bytes). */
    static Path write(Path jar, Map<String, String> headers, Map<String, byte[]> entries) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        headers.forEach((k, v) -> m.getMainAttributes().putValue(k, v));
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                j.putNextEntry(new JarEntry(e.getKey()));
                j.write(e.getValue());
                j.closeEntry();
            }
        }
        return jar;
    }

    /** Every .class entry of a jar. */
    static void copyClasses(Path jar, Map<String, byte[]> into) throws IOException {
        try (JarFile f = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (entry.getName().endsWith(".class")) {
                    try (InputStream in = f.getInputStream(entry)) {
                        into.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        }
    }

    /** One entry of a zip (the .oar) or jar as bytes; null when absent. */
    static byte[] entry(Path zip, String name) throws IOException {
        try (JarFile f = new JarFile(zip.toFile())) {
            JarEntry e = f.getJarEntry(name);
            if (e == null) {
                return null;
            }
            try (InputStream in = f.getInputStream(e)) {
                return in.readAllBytes();
            }
        }
    }
}
