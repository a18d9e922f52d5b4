// podspec: Kubernetes' own PodSpec validation (k8s.io/kubernetes v1.33.13) judging Pods, for the
// vectors of test/vectors/pod-containers.jsonl (the container rules of src/apiserver/core/pod/).
//
// For each JSON line on stdin, {"manifest": <a v1 Pod>}, it does what the API server's create
// does with a Pod before storage: it decodes the Pod into core/v1 (strictly, unknown fields are
// only named), runs the scheme's defaults (SetObjectDefaults_Pod: SetDefaults_PodSpec,
// _Container, probes, volume sources), converts to the internal type and runs rest.BeforeCreate
// with the pod registry strategy (PrepareForCreate, ValidatePodCreate under 1.33's default
// feature gates, the generic object-meta rules). It prints one JSON line per input: the verdict
// and every field error as the API server lists them. The vectors compare the ones under the
// paths ported so far; the test, not this program, chooses them.
//
// A separate program from ../main.go so that the pod registry's imports do not weigh on the
// oracle of every other kind.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	jsonserializer "k8s.io/apimachinery/pkg/runtime/serializer/json"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	"k8s.io/kubernetes/pkg/registry/core/pod"
)

type input struct {
	Manifest json.RawMessage `json:"manifest"`
}

type fieldError struct {
	Field   string `json:"field"`
	Type    string `json:"type"`
	Message string `json:"message"`
}

type verdict struct {
	Verdict     string       `json:"verdict"`
	Errors      []fieldError `json:"errors"`
	DecodeError string       `json:"decodeError,omitempty"`
	Warnings    []string     `json:"warnings,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	encoder := json.NewEncoder(out)
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		var line input
		var result verdict
		if err := json.Unmarshal(in.Bytes(), &line); err != nil {
			result = verdict{Verdict: "refuse", DecodeError: "not an oracle input line: " + err.Error()}
		} else {
			result = judgePod(line.Manifest)
		}
		if result.Errors == nil {
			result.Errors = []fieldError{}
		}
		if err := encoder.Encode(result); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func judgePod(manifest []byte) verdict {
	scheme := legacyscheme.Scheme
	decoder := jsonserializer.NewSerializerWithOptions(jsonserializer.DefaultMetaFactory, scheme, scheme, jsonserializer.SerializerOptions{Strict: true})
	versioned, gvk, err := decoder.Decode(manifest, nil, nil)
	var warnings []string
	if strict, ok := runtime.AsStrictDecodingError(err); ok && versioned != nil {
		for _, unknown := range strict.Errors() {
			warnings = append(warnings, unknown.Error())
		}
	} else if err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	}
	if gvk.Kind != "Pod" {
		return verdict{Verdict: "refuse", DecodeError: fmt.Sprintf("podspec judges Pods, not %s", gvk)}
	}
	scheme.Default(versioned)
	internal := &core.Pod{}
	if err := scheme.Convert(versioned, internal, nil); err != nil {
		return verdict{Verdict: "refuse", DecodeError: err.Error()}
	}
	rest.FillObjectMetaSystemFields(internal)
	namespace := internal.Namespace
	if namespace == "" {
		namespace = metav1.NamespaceDefault
	}
	ctx := genericapirequest.WithNamespace(context.Background(), namespace)
	result := verdictOf(rest.BeforeCreate(pod.Strategy, ctx, internal))
	result.Warnings = warnings
	return result
}


func verdictOf(err error) verdict {
	if err == nil {
		return verdict{Verdict: "accept"}
	}
	status, ok := err.(apierrors.APIStatus)
	if !ok || status.Status().Details == nil {
		return verdict{Verdict: "refuse", Errors: []fieldError{{Type: "Error", Message: err.Error()}}}
	}
	var errors []fieldError
	for _, cause := range status.Status().Details.Causes {
		errors = append(errors, fieldError{Field: cause.Field, Type: string(cause.Type), Message: cause.Message})
	}
	if len(errors) == 0 {
		errors = []fieldError{{Type: "Error", Message: err.Error()}}
	}
	return verdict{Verdict: "refuse", Errors: errors}
}
