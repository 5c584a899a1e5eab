// A Java program on the client `buf generate` makes (gen/java/dev/tablero/v1): it creates a
// Tic-Tac-Toe game over gRPC, watches it, plays both seats to the end, tries a move out of
// turn (and reads the refusal's google.rpc.ErrorInfo reason), and prints what it saw as JSON.
//
//   java -cp <jars>:. TicTacToe <host> <port>
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.UnknownFieldSet;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import dev.tablero.v1.CreateGameRequest;
import dev.tablero.v1.CreateGameResponse;
import dev.tablero.v1.Game;
import dev.tablero.v1.GameServiceGrpc;
import dev.tablero.v1.GameStatus;
import dev.tablero.v1.ListLegalActionsRequest;
import dev.tablero.v1.ListLegalActionsResponse;
import dev.tablero.v1.SeatToken;
import dev.tablero.v1.SubmitActionRequest;
import dev.tablero.v1.WatchGameRequest;
import dev.tablero.v1.WatchGameResponse;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

public final class TicTacToe {
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<byte[]> DETAILS =
      Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);

  private static GameServiceGrpc.GameServiceBlockingStub as(GameServiceGrpc.GameServiceBlockingStub stub, String token) {
    Metadata md = new Metadata();
    md.put(AUTHORIZATION, "Bearer " + token);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
  }

  /** The reason of the google.rpc.ErrorInfo in a google.rpc.Status (read field by field:
   * google.rpc's generated classes are not in Debian's protobuf-java). */
  static String reason(byte[] status) throws Exception {
    UnknownFieldSet fields = UnknownFieldSet.parseFrom(status);
    if (!fields.hasField(3)) return "";
    for (ByteString detail : fields.getField(3).getLengthDelimitedList()) {
      Any any = Any.parseFrom(detail);
      if (any.getTypeUrl().equals("type.googleapis.com/google.rpc.ErrorInfo")) {
        UnknownFieldSet info = UnknownFieldSet.parseFrom(any.getValue());
        return info.getField(1).getLengthDelimitedList().get(0).toStringUtf8();
      }
    }
    return "";
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  public static void main(String[] args) throws Exception {
    ManagedChannel channel = ManagedChannelBuilder.forAddress(args[0], Integer.parseInt(args[1])).usePlaintext().build();
    try {
      GameServiceGrpc.GameServiceBlockingStub games =
          GameServiceGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
      CreateGameResponse created = games.createGame(CreateGameRequest.newBuilder()
          .setEngine("tic-tac-toe").setPlayers(2).addSeats("human").addSeats("SEAT_KIND_HUMAN").build());
      String gameId = created.getGame().getId();
      Map<Integer, String> tokens = new HashMap<>();
      for (SeatToken t : created.getSeatsList()) tokens.put(t.getSeat(), t.getToken());

      List<Integer> watched = new ArrayList<>();
      List<String> types = new ArrayList<>();
      boolean[] ended = {false};
      Thread watcher = new Thread(() -> {
        Iterator<WatchGameResponse> it = games.watchGame(WatchGameRequest.newBuilder().setGameId(gameId).build());
        while (it.hasNext()) {
          WatchGameResponse ev = it.next();
          watched.add(ev.getVersion());
          types.add(ev.getEvent().getFieldsOrThrow("type").getStringValue());
        }
        ended[0] = true;
      });
      watcher.start();

      Game game = created.getGame();
      String refusalCode = "", refusalReason = "";
      while (game.getStatus() == GameStatus.GAME_STATUS_RUNNING) {
        int seat = game.getToAct(0);
        if (refusalCode.isEmpty()) { // once: the other seat tries to move now
          Struct place = Struct.newBuilder().putFields("type", Value.newBuilder().setStringValue("place").build())
              .putFields("cell", Value.newBuilder().setNumberValue(4).build()).build();
          try {
            as(games, tokens.get(1 - seat)).submitAction(
                SubmitActionRequest.newBuilder().setGameId(gameId).setAction(place).build());
            refusalCode = "OK";
          } catch (StatusRuntimeException e) {
            refusalCode = e.getStatus().getCode().name();
            Metadata trailers = e.getTrailers();
            if (trailers != null && trailers.containsKey(DETAILS)) refusalReason = reason(trailers.get(DETAILS));
          }
        }
        ListLegalActionsResponse legal = as(games, tokens.get(seat)).listLegalActions(
            ListLegalActionsRequest.newBuilder().setGameId(gameId).build());
        game = as(games, tokens.get(seat)).submitAction(SubmitActionRequest.newBuilder().setGameId(gameId)
            .setAction(legal.getActions(0)).setRequestId("java-" + legal.getVersion()).build()).getGame();
      }
      watcher.join(30_000);
      System.out.println("{\"gameId\": " + quote(gameId) + ", \"version\": " + game.getVersion()
          + ", \"status\": " + quote(game.getStatus().name())
          + ", \"outcome\": " + JsonFormat.printer().print(game.getOutcome()).replace("\n", "")
          + ", \"watched\": " + watched + ", \"watchEnded\": " + ended[0]
          + ", \"eventTypes\": [" + String.join(", ", types.stream().map(TicTacToe::quote).toList()) + "]"
          + ", \"refusalCode\": " + quote(refusalCode) + ", \"refusalReason\": " + quote(refusalReason) + "}");
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
