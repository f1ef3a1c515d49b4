package org.fairfabric.controller;

/** Entry point of the embedded controller: {@code java -cp ... org.fairfabric.controller.Main --data-dir DIR ...}. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        ControllerSettings settings;
        try {
            settings = ControllerSettings.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("fairfabric-controller: " + e.getMessage());
            System.err.println(ControllerSettings.USAGE);
            System.exit(2);
            return;
        }
        Controller controller;
        try {
            controller = Controller.start(settings);
        } catch (RuntimeException e) {
            System.err.println("fairfabric-controller: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(controller::close, "shutdown"));
        System.out.println("fairfabric controller: REST API on " + controller.baseUrl() + "/api/v1");
        System.out.flush();
    }
}
