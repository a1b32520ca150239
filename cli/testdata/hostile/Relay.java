// A well-behaved Java player: the JVM runs for the whole game and hands
// its terminal to the fake class program beside it (which keeps the
// rules), so that the box's limits are proven to fit a JVM.
public class Relay {
    public static void main(String[] args) throws Exception {
        Process p = new ProcessBuilder("./fakeclass", "-game", "sixes").inheritIO().start();
        System.exit(p.waitFor());
    }
}
