// Produces the Go vectors of vectors.json: for each string of a JSON array on stdin, what Furiko's
// jsonyaml.UnmarshalString(optionValues, &map[string]interface{}) gives (err, or out: the json.Marshal of the
// map Furiko stores back) and what gopkg.in/yaml.v2's Unmarshal into an interface{} gives (goyaml).
// encoding/json and go-yaml are the real libraries (Go 1.19.8, gopkg.in/yaml.v2 v2.4.0 from Debian's
// golang-go and golang-gopkg-yaml.v2-dev); apimachinery v0.23's YAMLOrJSONDecoder framing and
// sigs.k8s.io/yaml v1.3.0's YAML-to-JSON step are re-typed below from their sources (neither is packaged).
// Run: GO111MODULE=off GOPATH=/usr/share/gocode go run main.go < inputs.json
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	yaml "gopkg.in/yaml.v2"
)

type yamlSyntaxError struct{ err error }

func (e yamlSyntaxError) Error() string { return e.err.Error() }

func readLine(r *bufio.Reader) ([]byte, error) {
	var (
		isPrefix = true
		err      error
		line     []byte
		buffer   bytes.Buffer
	)
	for isPrefix && err == nil {
		line, isPrefix, err = r.ReadLine()
		buffer.Write(line)
	}
	buffer.WriteByte('\n')
	return buffer.Bytes(), err
}

func readDocument(r *bufio.Reader) ([]byte, error) {
	var buffer bytes.Buffer
	for {
		line, err := readLine(r)
		if err != nil && err != io.EOF {
			return nil, err
		}
		if i := bytes.Index(line, []byte("---")); i == 0 {
			trimmed := strings.TrimSpace(string(line[3:]))
			if len(trimmed) > 0 && string(trimmed[0]) != "#" {
				return nil, yamlSyntaxError{fmt.Errorf("invalid Yaml document separator: %s", trimmed)}
			}
			if buffer.Len() != 0 {
				return buffer.Bytes(), nil
			}
			if err == io.EOF {
				return nil, err
			}
		}
		if err == io.EOF {
			if buffer.Len() != 0 {
				return buffer.Bytes(), nil
			}
			return nil, err
		}
		buffer.Write(line)
	}
}

func jsonable(v interface{}) (interface{}, error) {
	switch t := v.(type) {
	case map[interface{}]interface{}:
		out := map[string]interface{}{}
		for k, val := range t {
			var key string
			switch kk := k.(type) {
			case string:
				key = kk
			case int:
				key = fmt.Sprint(kk)
			case int64:
				key = fmt.Sprint(kk)
			case float64:
				key = strconv.FormatFloat(kk, 'g', -1, 32)
				switch key {
				case "+Inf":
					key = ".inf"
				case "-Inf":
					key = "-.inf"
				case "NaN":
					key = ".nan"
				}
			case bool:
				key = fmt.Sprint(kk)
			default:
				return nil, fmt.Errorf("Unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, val)
			}
			c, err := jsonable(val)
			if err != nil {
				return nil, err
			}
			out[key] = c
		}
		return out, nil
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, val := range t {
			c, err := jsonable(val)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

func sigsUnmarshal(y []byte, o interface{}) error {
	var obj interface{}
	if err := yaml.Unmarshal(y, &obj); err != nil {
		return fmt.Errorf("error converting YAML to JSON: %v", err)
	}
	j, err := jsonable(obj)
	if err != nil {
		return fmt.Errorf("error converting YAML to JSON: %v", err)
	}
	b, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("error converting YAML to JSON: %v", err)
	}
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&o); err != nil {
		return fmt.Errorf("error unmarshaling JSON: while decoding JSON: %v", err)
	}
	return nil
}

func decode(text string) (string, error) {
	values := map[string]interface{}{}
	r := bufio.NewReaderSize(strings.NewReader(text), 4096)
	peek, _ := r.Peek(4096)
	if bytes.HasPrefix(bytes.TrimLeftFunc(peek, unicode.IsSpace), []byte("{")) {
		err := json.NewDecoder(r).Decode(&values)
		if syntax, ok := err.(*json.SyntaxError); ok {
			return "", fmt.Errorf("json: offset %d: %s", syntax.Offset, syntax.Error())
		}
		if err != nil {
			return "", err
		}
	} else {
		doc, err := readDocument(bufio.NewReader(r))
		if err != nil && err != io.EOF {
			return "", err
		}
		if len(doc) != 0 {
			if err := sigsUnmarshal(doc, &values); err != nil {
				return "", err
			}
		} else if err != nil {
			return "", err
		}
	}
	out, err := json.Marshal(values)
	return string(out), err
}

func main() {
	var inputs []string
	if err := json.NewDecoder(os.Stdin).Decode(&inputs); err != nil {
		panic(err)
	}
	results := []map[string]string{}
	for _, in := range inputs {
		out, err := decode(in)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		var raw interface{}
		rawErr := ""
		if e := yaml.Unmarshal([]byte(in), &raw); e != nil {
			rawErr = e.Error()
		}
		results = append(results, map[string]string{"in": in, "err": msg, "out": out, "goyaml": rawErr})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	enc.Encode(results)
}
