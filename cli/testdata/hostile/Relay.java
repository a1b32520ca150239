// A well-behaved Java player: the JVM runs for the whole game and relays
// the game to the fake class program beside it (which keeps the rules),
// so that the box's limits are proven to fit a JVM.
import java.io.InputStream;
import java.io.OutputStream;

public class Relay {
    static void copy(InputStream in, OutputStream out) {
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (Exception e) {
            // the game ended
        }
    }

    public static void main(String[] args) throws Exception {
        Process p = new ProcessBuilder("./fakeclass", "-game", "sixes").redirectErrorStream(true).start();
        Thread in = new Thread(() -> copy(System.in, p.getOutputStream()));
        in.setDaemon(true);
        in.start();
        copy(p.getInputStream(), System.out);
        System.exit(p.waitFor());
    }
}
