// A Go program on the client `buf generate` makes (gen/go/tablero/v1): it creates a
// Tic-Tac-Toe game over gRPC, watches it, plays both seats to the end, tries a move out of
// turn (and reads the refusal's google.rpc.ErrorInfo reason), and prints what it saw as JSON.
//
//	go run . <host:port>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	tablerov1 "github.com/tablero/tablero/gen/go/tablero/v1"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"
)

type report struct {
	GameID        string   `json:"gameId"`
	Version       int32    `json:"version"`
	Status        string   `json:"status"`
	Outcome       any      `json:"outcome"`
	Watched       []int32  `json:"watched"`
	WatchEnded    bool     `json:"watchEnded"`
	RefusalCode   string   `json:"refusalCode"`
	RefusalReason string   `json:"refusalReason"`
	EventTypes    []string `json:"eventTypes"`
}

func seatCtx(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "error:", err)
	os.Exit(1)
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// grpc-go 1.33 (Debian 12's) has WithInsecure; later ones also insecure.NewCredentials().
	conn, err := grpc.Dial(os.Args[1], grpc.WithInsecure())
	if err != nil {
		fail(err)
	}
	defer conn.Close()
	games := tablerov1.NewGameServiceClient(conn)

	created, err := games.CreateGame(ctx, &tablerov1.CreateGameRequest{
		Engine: "tic-tac-toe", Players: 2, Seats: []string{"SEAT_KIND_HUMAN", "human"}})
	if err != nil {
		fail(err)
	}
	out := report{GameID: created.Game.Id}
	tokens := map[int32]string{}
	for _, s := range created.Seats {
		tokens[s.Seat] = s.Token
	}

	// Watch as a spectator, from the start, until the server ends the stream.
	stream, err := games.WatchGame(ctx, &tablerov1.WatchGameRequest{GameId: out.GameID})
	if err != nil {
		fail(err)
	}
	watched := make(chan error, 1)
	go func() {
		for {
			ev, err := stream.Recv()
			if err == io.EOF {
				out.WatchEnded = true
				watched <- nil
				return
			}
			if err != nil {
				watched <- err
				return
			}
			out.Watched = append(out.Watched, ev.Version)
			out.EventTypes = append(out.EventTypes, ev.Event.Fields["type"].GetStringValue())
		}
	}()

	game := created.Game
	for game.Status == tablerov1.GameStatus_GAME_STATUS_RUNNING {
		seat := game.ToAct[0]
		if out.RefusalReason == "" { // once: the other seat tries to move now
			_, err := games.SubmitAction(seatCtx(ctx, tokens[1-seat]), &tablerov1.SubmitActionRequest{
				GameId: out.GameID, Action: &structpb.Struct{Fields: map[string]*structpb.Value{
					"type": structpb.NewStringValue("place"), "cell": structpb.NewNumberValue(4)}}})
			st, _ := status.FromError(err)
			out.RefusalCode = st.Code().String()
			for _, d := range st.Details() {
				if info, ok := d.(*errdetails.ErrorInfo); ok {
					out.RefusalReason = info.Reason
				}
			}
		}
		legal, err := games.ListLegalActions(seatCtx(ctx, tokens[seat]), &tablerov1.ListLegalActionsRequest{GameId: out.GameID})
		if err != nil {
			fail(err)
		}
		acted, err := games.SubmitAction(seatCtx(ctx, tokens[seat]), &tablerov1.SubmitActionRequest{
			GameId: out.GameID, Action: legal.Actions[0], RequestId: fmt.Sprintf("go-%d", legal.Version)})
		if err != nil {
			fail(err)
		}
		game = acted.Game
	}
	if err := <-watched; err != nil {
		fail(err)
	}
	out.Version, out.Status, out.Outcome = game.Version, game.Status.String(), game.Outcome.AsMap()
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(err)
	}
}
